import type { GlyphName } from "../marketing/art/glyphs";

/**
 * SAMPLE CONTENT of the portfolio page (/about), as docs/product/portfolio.md#sample-content
 * describes it: the person, the typed code snippet, the contact links, the three past jobs, the
 * five skill categories and the research paper. Everything the page and the two downloadable
 * documents say comes from this one module; replace it to make the page someone's real portfolio.
 *
 * The person, the employers and the paper are fictional. The email uses the reserved
 * example.com domain, and since no real profile exists the professional-network link opens the
 * network's home page rather than a made-up profile address that would answer 404. The resume
 * and the paper are real files in packages/web/public/portfolio/, generated from this module by
 * `npm run portfolio:documents -w @fintech/web` (a test fails when they drift from it).
 */

export interface PortfolioPerson {
  name: string;
  role: string;
  location: string;
  /** One line under the name in the hero. */
  tagline: string;
  /** The About Me block, one paragraph per entry. */
  about: readonly string[];
}

/** An experience item of docs/product/portfolio.md#sample-content: title, company, duration, description, icon. */
export interface ExperienceItem {
  title: string;
  company: string;
  duration: string;
  description: string;
  icon: GlyphName;
}

/** A skill category of docs/product/portfolio.md#sample-content: a name to a list of skill names. */
export interface SkillCategory {
  name: string;
  skills: readonly string[];
}

export interface PortfolioDocument {
  /** Path under the SPA's public folder, served as a static file. */
  href: string;
  /** File name a download saves as. */
  fileName: string;
  title: string;
}

export interface PortfolioPaper extends PortfolioDocument {
  venue: string;
  abstract: string;
  sections: readonly { heading: string; paragraphs: readonly string[] }[];
}

export interface PortfolioContact {
  email: string;
  /** The professional network profile (external). */
  profile: { label: string; href: string };
  resume: PortfolioDocument;
  paper: PortfolioPaper;
}

export const portfolioPerson: PortfolioPerson = {
  name: "Alex Morgan",
  role: "Senior Software Engineer, Fintech Infrastructure",
  location: "Lisbon, Portugal (remote)",
  tagline: "I build ledgers, payment rails and real-time APIs that stay correct under load.",
  about: [
    "I have spent about a decade on the parts of finance that must never be wrong: double-entry ledgers, payment orchestration and the reconciliation jobs that prove the books balance. I like systems whose invariants are written down and tested, and APIs whose documentation is generated from the code that serves them.",
    "Lately I work on event-driven platforms: an outbox for every state change, server-sent event feeds that resume where they left off, and idempotent writes that a retrying client can never double. Outside work I mentor junior engineers and write about distributed-systems testing.",
  ],
};

/** Typed out on the page, one character at a time (docs/product/portfolio.md#typing-animation). */
export const portfolioSnippet = `const engineer = {
  name: "Alex Morgan",
  focus: ["ledgers", "payments", "real-time APIs"],
  principle: "correct first, then fast",
  available: true,
};`;

export const portfolioExperience: readonly ExperienceItem[] = [
  {
    title: "Senior Software Engineer, Ledger Platform",
    company: "Brightline Payments",
    duration: "2021 – Present",
    description:
      "Leads the double-entry ledger behind card and bank transfers: idempotent postings, per-currency balance checks in one transaction, and an outbox that feeds webhooks and live dashboards.",
    icon: "ledger",
  },
  {
    title: "Software Engineer, Payments",
    company: "Harbor Financial",
    duration: "2018 – 2021",
    description:
      "Built smart routing across ACH, SEPA and card rails with cost and success-rate scoring, and the nightly settlement reconciliation that flags variances for review.",
    icon: "payments",
  },
  {
    title: "Backend Engineer",
    company: "Cobalt Analytics",
    duration: "2015 – 2018",
    description:
      "Designed streaming ingestion and reporting APIs for transaction analytics, cutting report latency from hours to minutes.",
    icon: "analytics",
  },
];

/** docs/product/portfolio.md#technical-expertise: the five Technical Expertise categories, in this order. */
export const portfolioSkills: readonly SkillCategory[] = [
  {
    name: "Programming & Core",
    skills: ["TypeScript", "Go", "Python", "Java", "Distributed systems", "Property-based testing"],
  },
  { name: "Database & Data", skills: ["DynamoDB", "PostgreSQL", "Redis", "Kafka", "Event sourcing", "Data modelling"] },
  { name: "Web & API", skills: ["React", "Node.js", "Hono", "OpenAPI", "gRPC", "Server-sent events"] },
  {
    name: "Cloud & DevOps",
    skills: ["AWS Lambda", "SST / CDK", "Docker", "Terraform", "GitHub Actions", "Observability"],
  },
  { name: "AI & Blockchain", skills: ["Fraud scoring models", "LLM tooling", "Solidity", "Stablecoin settlement"] },
];

export const portfolioContact: PortfolioContact = {
  email: "alex.morgan@example.com",
  profile: { label: "LinkedIn", href: "https://www.linkedin.com/" },
  resume: {
    href: "/portfolio/alex-morgan-resume.pdf",
    fileName: "alex-morgan-resume.pdf",
    title: "Resume",
  },
  paper: {
    href: "/portfolio/idempotent-double-entry-postings.pdf",
    fileName: "idempotent-double-entry-postings.pdf",
    title: "Idempotent Double-Entry Postings on a Key-Value Store",
    venue: "Technical note, 2024 (sample paper of the portfolio page)",
    abstract:
      "A payment API is called by clients that retry. This note shows how a double-entry ledger on a key-value store with conditional transactional writes can accept every retry of a posting exactly once, keep every journal balanced per currency, and answer a replay with the original reply, without a separate idempotency table.",
    sections: [
      {
        heading: "1. The problem",
        paragraphs: [
          "A client that times out cannot know whether its transfer was booked. If it retries and the server books again, money moves twice. The usual cure is an idempotency key sent by the client; the hard part is storing the key and the effect atomically.",
        ],
      },
      {
        heading: "2. The journal item is the idempotency record",
        paragraphs: [
          "Each posting writes one journal item whose key is derived from the client's idempotency key, together with the balance items of the accounts it touches, in a single conditional transaction. The journal write carries the condition that the item does not exist yet; the balance writes carry version and available-funds conditions.",
          "When the condition on the journal fails, the posting was already booked: the server reads the stored journal and returns its original reply. When the stored request differs from the new one, the server rejects the call with a conflict instead of guessing.",
        ],
      },
      {
        heading: "3. Invariants and how they are tested",
        paragraphs: [
          "Every journal balances per currency; every balance equals the sum of its postings; no retry creates a second journal. A property-based test runs concurrent clients with random retries against the real store and checks these invariants over the whole table, and mutations of the engine (a dropped condition, a skipped balance update) must make it fail.",
        ],
      },
      {
        heading: "4. Cost",
        paragraphs: [
          "The floor is three items per transfer: the journal and two balances. History and outbox data ride on items that are written anyway, so idempotency costs no extra write.",
        ],
      },
    ],
  },
};

/** docs/product/portfolio.md#call-to-action: the closing call to action. */
export const portfolioCallToAction = {
  title: "Let's Build Something Impactful",
  text: "Looking for someone to make your money movement correct, observable and fast? I'd like to hear about it.",
  getInTouch: "Get in Touch",
  viewResume: "View Resume",
} as const;
