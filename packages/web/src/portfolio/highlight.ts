/**
 * Just enough highlighting for the portfolio's object-literal snippet: string literals, a few
 * keywords and literals, property names, and the rest as plain text. Works on any prefix of the
 * snippet (an unterminated string while it is being typed is still a string).
 */

export type TokenKind = "keyword" | "string" | "literal" | "property" | "plain";

export interface Token {
  kind: TokenKind;
  text: string;
}

const KEYWORDS = new Set(["const", "let", "return", "export", "function"]);
const LITERALS = new Set(["true", "false", "null", "undefined"]);
const TOKEN = /("(?:[^"\\\n]|\\.)*"?)|([A-Za-z_$][\w$]*)(\s*:)?|([^"A-Za-z_$]+)/g;

export function highlightSnippet(text: string): Token[] {
  const tokens: Token[] = [];
  const push = (kind: TokenKind, value: string) => {
    const previous = tokens[tokens.length - 1];
    if (previous && previous.kind === kind) previous.text += value;
    else tokens.push({ kind, text: value });
  };
  for (const match of text.matchAll(TOKEN)) {
    const [, string, word, colon, other] = match;
    if (string !== undefined) push("string", string);
    else if (word !== undefined) {
      if (KEYWORDS.has(word)) push("keyword", word);
      else if (LITERALS.has(word)) push("literal", word);
      else if (colon !== undefined) push("property", word);
      else push("plain", word);
      if (colon !== undefined) push("plain", colon);
    } else if (other !== undefined) push("plain", other);
  }
  return tokens;
}
