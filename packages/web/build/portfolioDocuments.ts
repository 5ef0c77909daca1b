import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import {
  portfolioContact,
  portfolioExperience,
  portfolioPerson,
  portfolioSkills,
  type PortfolioDocument,
} from "../src/portfolio/portfolioSeed";

/**
 * The two PDFs the portfolio page links to (the resume and the research paper), written from the
 * page's seed module with pdfkit, so the files say what the page says. They are generated here,
 * committed to public/portfolio/ and served as static files: pdfkit never reaches the SPA bundle.
 * A fixed creation date keeps the bytes stable, so a test can regenerate them and compare.
 */

const CREATED = new Date("2024-01-01T00:00:00Z");
const MARGIN = 56;
const INK = "#0f172a";
const MUTED = "#475569";
const ACCENT = "#4338ca";
const SAMPLE_NOTE = "Sample content of the portfolio page: the person, employers and paper are fictional.";

type Pdf = InstanceType<typeof PDFDocument>;

function newPdf(title: string): Pdf {
  return new PDFDocument({
    size: "A4",
    margin: MARGIN,
    displayTitle: true,
    lang: "en-US",
    info: { Title: title, Author: portfolioPerson.name, Subject: SAMPLE_NOTE, CreationDate: CREATED, ModDate: CREATED },
  });
}

function toBuffer(pdf: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    pdf.end();
  });
}

function heading(pdf: Pdf, text: string) {
  pdf.moveDown(1).font("Helvetica-Bold").fontSize(13).fillColor(ACCENT).text(text.toUpperCase(), { characterSpacing: 0.5 });
  pdf.moveDown(0.3);
}

function body(pdf: Pdf, text: string, options: PDFKit.Mixins.TextOptions = {}) {
  pdf.font("Helvetica").fontSize(10.5).fillColor(INK).text(text, { lineGap: 2, ...options });
}

function note(pdf: Pdf) {
  pdf.moveDown(1.5).font("Helvetica-Oblique").fontSize(8.5).fillColor(MUTED).text(SAMPLE_NOTE);
}

export async function renderResume(): Promise<Buffer> {
  const person = portfolioPerson;
  const pdf = newPdf(`${person.name} - Resume`);
  pdf.font("Helvetica-Bold").fontSize(24).fillColor(INK).text(person.name);
  pdf.font("Helvetica").fontSize(12).fillColor(MUTED).text(person.role);
  pdf.moveDown(0.3).fontSize(10).text(`${portfolioContact.email}  |  ${person.location}`);

  heading(pdf, "Summary");
  for (const paragraph of person.about) {
    body(pdf, paragraph);
    pdf.moveDown(0.4);
  }

  heading(pdf, "Experience");
  for (const job of portfolioExperience) {
    pdf.font("Helvetica-Bold").fontSize(11).fillColor(INK).text(job.title);
    pdf.font("Helvetica").fontSize(10).fillColor(MUTED).text(`${job.company}, ${job.duration}`);
    pdf.moveDown(0.2);
    body(pdf, job.description);
    pdf.moveDown(0.6);
  }

  heading(pdf, "Technical expertise");
  for (const category of portfolioSkills) {
    pdf.font("Helvetica-Bold").fontSize(10.5).fillColor(INK).text(`${category.name}: `, { continued: true });
    pdf.font("Helvetica").text(category.skills.join(", "), { lineGap: 2 });
  }

  heading(pdf, "Publication");
  body(pdf, `${portfolioContact.paper.title}. ${portfolioContact.paper.venue}.`);
  note(pdf);
  return toBuffer(pdf);
}

export async function renderPaper(): Promise<Buffer> {
  const paper = portfolioContact.paper;
  const pdf = newPdf(paper.title);
  pdf.font("Helvetica-Bold").fontSize(18).fillColor(INK).text(paper.title, { align: "center" });
  pdf.moveDown(0.4).font("Helvetica").fontSize(11).fillColor(MUTED).text(portfolioPerson.name, { align: "center" });
  pdf.fontSize(9.5).text(paper.venue, { align: "center" });

  pdf.moveDown(1.2).font("Helvetica-Bold").fontSize(10.5).fillColor(INK).text("Abstract");
  body(pdf, paper.abstract, { align: "justify" });

  for (const section of paper.sections) {
    pdf.moveDown(0.9).font("Helvetica-Bold").fontSize(12).fillColor(INK).text(section.heading);
    pdf.moveDown(0.2);
    for (const paragraph of section.paragraphs) {
      body(pdf, paragraph, { align: "justify" });
      pdf.moveDown(0.4);
    }
  }
  note(pdf);
  return toBuffer(pdf);
}

/** Where a document of the seed lives on disk: its href under the SPA's public folder. */
export function publicPath(publicDir: string, document: PortfolioDocument): string {
  return path.join(publicDir, ...document.href.split("/").filter(Boolean));
}

export const PUBLIC_DIR = path.resolve(import.meta.dirname, "../public");

export async function renderPortfolioDocuments(): Promise<{ document: PortfolioDocument; bytes: Buffer }[]> {
  return [
    { document: portfolioContact.resume, bytes: await renderResume() },
    { document: portfolioContact.paper, bytes: await renderPaper() },
  ];
}

export async function writePortfolioDocuments(publicDir = PUBLIC_DIR): Promise<string[]> {
  const written: string[] = [];
  for (const { document, bytes } of await renderPortfolioDocuments()) {
    const file = publicPath(publicDir, document);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    written.push(`${path.relative(process.cwd(), file)} (${bytes.length} bytes)`);
  }
  return written;
}
