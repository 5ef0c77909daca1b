import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateSdkFiles, SDK_ROOT } from "./generation";

/** `npm run sdk:generate`: the OpenAPI document from the code, and the SDK's types from it. */
const files = await generateSdkFiles();
for (const [file, contents] of Object.entries(files)) {
  const target = path.join(SDK_ROOT, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, contents);
  console.log(`wrote packages/sdk/${file} (${contents.length.toLocaleString("en-US")} bytes)`);
}
