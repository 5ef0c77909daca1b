import PDFDocument from "pdfkit";

/**
 * A report as a PDF (pdfkit, server-side): a title, the period, then each row as a block of
 * label/value lines, paginated by pdfkit. Only the standard Helvetica fonts are used: they need no
 * font file (the Lambda bundle carries pdfkit's font metrics as code, infra/bundling.ts).
 */

export interface PdfSection {
  heading: string;
  lines: [label: string, value: string][];
}

export interface PdfReport {
  title: string;
  subtitle: string;
  summary: string[];
  sections: PdfSection[];
  /** Fixed creation date, so the same report renders the same bytes. */
  createdAt: Date;
}

export function renderPdf(report: PdfReport): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 48,
    info: {
      Title: report.title,
      Subject: report.subtitle,
      CreationDate: report.createdAt,
      Producer: "Compliance reports",
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(18).text(report.title);
  doc.font("Helvetica").fontSize(10).fillColor("#333333").text(report.subtitle).moveDown();
  for (const line of report.summary) doc.text(line);
  if (report.sections.length === 0) doc.moveDown().text("Nothing to report for this period.");
  for (const section of report.sections) {
    doc.moveDown(0.8).font("Helvetica-Bold").fontSize(11).fillColor("#000000").text(section.heading);
    doc.font("Helvetica").fontSize(9).fillColor("#222222");
    for (const [label, value] of section.lines) doc.text(`${label}: ${value}`, { width: 500 });
  }
  doc.end();
  return done;
}
