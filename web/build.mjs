// Bundles the demo page into OUT (default: dist/): index.html, assets/demo.css, assets/demo.js with the
// official vanilla client inlined. Run by build.sh, which the Maven build calls; nothing here reaches
// the network.
import { build } from "esbuild";
import { copyFile, mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] ?? path.join(here, "dist"));
const client = JSON.parse(await readFile(
  path.join(here, "node_modules/@magicx-eng/ai-autocomplete-vanilla/package.json"), "utf8"));

await rm(out, { recursive: true, force: true });
await mkdir(path.join(out, "assets"), { recursive: true });
await build({
  entryPoints: [path.join(here, "src/demo.js")],
  outfile: path.join(out, "assets/demo.js"),
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  define: { CLIENT_VERSION: JSON.stringify(client.version) },
  logLevel: "warning",
});
await copyFile(path.join(here, "src/index.html"), path.join(out, "index.html"));
await copyFile(path.join(here, "src/demo.css"), path.join(out, "assets/demo.css"));
console.log(`demo page built into ${out} (client ${client.version})`);
