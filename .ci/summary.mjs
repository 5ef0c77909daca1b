// Prints the suite's totals as one plain line ("Tests: N passed, N failed, N skipped").
import { readFileSync } from "node:fs";

const file = process.argv[2];
try {
  const report = JSON.parse(readFileSync(file, "utf8"));
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
} catch {
  console.log("Tests: 0 passed, 1 failed");
  console.error(`No test report at ${file}: the suite did not get as far as running tests.`);
}
