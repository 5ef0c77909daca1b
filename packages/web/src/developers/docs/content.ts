import { z } from "zod";

/**
 * The one content format of the developer pages (documentation guides, quickstart, examples):
 * plain data, no React, so the pages render it and infra/docs/guide-examples.test.ts extracts
 * and runs every shell and TypeScript block of it against a real server.
 */

/** Languages a reader can run; every block in one of these is executed by the example runner. */
export const RUNNABLE_LANGUAGES = ["shell", "typescript"] as const;
/** Shown only (replies, files, formats): never extracted. */
export const DISPLAY_LANGUAGES = ["json", "text", "csv"] as const;
export const CODE_LANGUAGES = [...RUNNABLE_LANGUAGES, ...DISPLAY_LANGUAGES] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];

export const HeadingBlock = z.object({
  kind: z.literal("heading"),
  text: z.string().min(1),
  /** An anchor for links into the page (e.g. the examples' table of contents). */
  id: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .optional(),
});

/** Text with `inline code` and [links](/developers/api-keys) (see inlineSegments). */
export const ParagraphBlock = z.object({ kind: z.literal("paragraph"), text: z.string().min(1) });

export const ListBlock = z.object({ kind: z.literal("list"), items: z.array(z.string().min(1)).min(1) });

export const CodeBlock = z
  .object({
    kind: z.literal("code"),
    language: z.enum(CODE_LANGUAGES),
    code: z.string().min(1),
    /** A caption, e.g. "Reply" or "transfer.ts". */
    title: z.string().min(1).optional(),
    /**
     * Set (to false) only on a shell or TypeScript block that cannot run outside a browser or
     * without a person; `notRunnableBecause` says why, and the runner counts these.
     */
    runnable: z.literal(false).optional(),
    notRunnableBecause: z.string().min(1).optional(),
    /** What the block's standard output must match when the runner executes it. */
    expectOutput: z.instanceof(RegExp).optional(),
  })
  .refine((block) => (block.runnable === false) === (block.notRunnableBecause !== undefined), {
    message: "A block marked runnable: false says why (notRunnableBecause), and only such a block does",
  })
  .refine((block) => block.runnable !== false || isRunnableLanguage(block.language), {
    message: "Only shell and TypeScript blocks are run, so only they can be marked not runnable",
  });

export const ContentBlock = z.union([HeadingBlock, ParagraphBlock, ListBlock, CodeBlock]);
export type HeadingBlock = z.infer<typeof HeadingBlock>;
export type ParagraphBlock = z.infer<typeof ParagraphBlock>;
export type ListBlock = z.infer<typeof ListBlock>;
export type CodeBlock = z.infer<typeof CodeBlock>;
export type ContentBlock = z.infer<typeof ContentBlock>;

/**
 * Variables a page's examples read from the environment and that the reader sets first. The
 * page shows them as "Before you start" exports; the example runner supplies them itself (a
 * fresh server, a freshly registered user and its key), so they are not content blocks.
 */
export const ENVIRONMENT_VARIABLES = {
  BASE_URL: { example: "http://localhost:3000", meaning: "where the API runs (npm start serves it here)" },
  EMAIL: { example: "ada@example.com", meaning: "the email you registered with" },
  PASSWORD: { example: "'correct horse battery staple'", meaning: "its password" },
  TOKEN: { example: "eyJhbGciOi...", meaning: "a session token from sign-in (24 hours)" },
  API_KEY: { example: "fpk_...", meaning: "an API key from /developers/api-keys" },
} as const;
export type EnvironmentVariable = keyof typeof ENVIRONMENT_VARIABLES;
const EnvironmentVariableName = z.enum(
  Object.keys(ENVIRONMENT_VARIABLES) as [EnvironmentVariable, ...EnvironmentVariable[]],
);

export const DocPage = z.object({
  /** The page's anchor and key, e.g. "ledger". */
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  description: z.string().min(1),
  /** A decorative emoji beside the title. */
  icon: z.string().min(1),
  /** In the order they are exported; BASE_URL always. */
  requires: z
    .array(EnvironmentVariableName)
    .refine((names) => names.includes("BASE_URL"), "Every page's examples need BASE_URL"),
  /** The guide's content (docs/product/developer-tools.md#documentation), in reading order. */
  content: z.array(ContentBlock).min(1),
});
export type DocPage = z.infer<typeof DocPage>;

export function isRunnableLanguage(language: CodeLanguage): language is (typeof RUNNABLE_LANGUAGES)[number] {
  return (RUNNABLE_LANGUAGES as readonly string[]).includes(language);
}

export function isCodeBlock(block: ContentBlock): block is CodeBlock {
  return block.kind === "code";
}

/** The exports a reader runs before a page's examples, as one shell snippet with a comment each. */
export function environmentPrelude(page: Pick<DocPage, "requires">): string {
  const lines = page.requires.map((name) => `export ${name}=${ENVIRONMENT_VARIABLES[name].example}`);
  const width = Math.max(...lines.map((line) => line.length));
  return lines
    .map((line, index) => `${line.padEnd(width)}  # ${ENVIRONMENT_VARIABLES[page.requires[index]!].meaning}`)
    .join("\n");
}

export type InlineSegment =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "link"; text: string; href: string };

const INLINE = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Splits paragraph text into plain text, `code` and [label](href) links. */
export function inlineSegments(text: string): InlineSegment[] {
  const segments: InlineSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) segments.push({ kind: "text", text: text.slice(last, match.index) });
    if (match[1] !== undefined) segments.push({ kind: "code", text: match[1] });
    else segments.push({ kind: "link", text: match[2]!, href: match[3]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ kind: "text", text: text.slice(last) });
  return segments;
}

/** What search matches: title or description, case-insensitive; an empty query matches all. */
export function matchesSearch(page: Pick<DocPage, "title" | "description">, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return page.title.toLowerCase().includes(needle) || page.description.toLowerCase().includes(needle);
}

/** Builders that keep the page modules readable. */
export const heading = (text: string, id?: string): HeadingBlock =>
  id ? { kind: "heading", text, id } : { kind: "heading", text };
export const paragraph = (text: string): ParagraphBlock => ({ kind: "paragraph", text });
export const list = (...items: string[]): ListBlock => ({ kind: "list", items });
type CodeOptions = Partial<Pick<CodeBlock, "title" | "expectOutput">>;
const code = (language: CodeLanguage, source: string, options: CodeOptions = {}): CodeBlock => ({
  kind: "code",
  language,
  code: source.trim(),
  ...options,
});
export const shell = (source: string, options?: CodeOptions) => code("shell", source, options);
export const typescript = (source: string, options?: CodeOptions) => code("typescript", source, options);
export const json = (source: string, title = "Reply") => code("json", source, { title });
export const text = (source: string, title?: string) => code("text", source, title ? { title } : {});
/** A shell or TypeScript block that cannot run outside a browser or by itself; the runner counts it. */
export const notRunnable = (block: CodeBlock, because: string): CodeBlock => ({
  ...block,
  runnable: false,
  notRunnableBecause: because,
});
