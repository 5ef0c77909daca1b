const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/** Fields that must never reach a log line, at any depth. */
const SECRET_FIELDS = /pass(word)?|token|secret|authorization|cookie|document_image|face_image/i;

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      SECRET_FIELDS.test(key) ? "[redacted]" : redact(inner, depth + 1),
    ]),
  );
}

/** One JSON object per line on stdout, the format CloudWatch and local tooling both read. */
export function createLogger(
  level: LogLevel = "info",
  base: LogFields = {},
  write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, message: string, fields?: LogFields) => {
    if (LEVELS[at] < LEVELS[level]) return;
    const record = { time: new Date().toISOString(), level: at, message, ...base, ...fields };
    write(JSON.stringify(redact(record)));
  };
  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}
