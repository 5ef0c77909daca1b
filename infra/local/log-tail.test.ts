import { describe, expect, it } from "vitest";
import { LogTail } from "./log-tail";

describe("LogTail", () => {
  it("keeps only the last characters, however much is written", () => {
    const tail = new LogTail(10);
    for (let i = 0; i < 10_000; i++) tail.append(Buffer.from(`line ${i}\n`));
    expect(tail.toString()).toHaveLength(10);
    expect(tail.toString()).toBe("\nline 9999\n".slice(-10));
  });

  it("keeps short output whole", () => {
    const tail = new LogTail(100);
    tail.append("Initializing DynamoDB Local\n");
    tail.append("Port: 8000\n");
    expect(tail.toString()).toBe("Initializing DynamoDB Local\nPort: 8000\n");
  });
});
