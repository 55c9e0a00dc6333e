// Bundles the demo page into OUT (default: dist/): index.html, assets/demo.css, assets/demo.js with the
// official vanilla client inlined; and the operator console into OUT/console/ (the client and uPlot inlined).
// Run by build.sh, which the Maven build calls; nothing here reaches the network.
import { build } from "esbuild";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] ?? path.join(here, "dist"));
const client = JSON.parse(await readFile(
  path.join(here, "node_modules/@magicx-eng/ai-autocomplete-vanilla/package.json"), "utf8"));

await rm(out, { recursive: true, force: true });
await mkdir(path.join(out, "assets"), { recursive: true });
/** One page's script with what it imports (the client, uPlot) inlined. */
const bundle = (entry, outfile) => build({
  entryPoints: [path.join(here, entry)],
  outfile: path.join(out, outfile),
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  legalComments: "eof",
  define: { CLIENT_VERSION: JSON.stringify(client.version) },
  logLevel: "warning",
});
await bundle("src/demo.js", "assets/demo.js");
await copyFile(path.join(here, "src/index.html"), path.join(out, "index.html"));
await copyFile(path.join(here, "src/demo.css"), path.join(out, "assets/demo.css"));

// The operator console, served at /admin/ on the management listener: the same client, and uPlot for the charts.
await mkdir(path.join(out, "console/assets"), { recursive: true });
await bundle("src/console.js", "console/assets/console.js");
await copyFile(path.join(here, "src/console.html"), path.join(out, "console/index.html"));
const chartStyles = await readFile(path.join(here, "node_modules/uplot/dist/uPlot.min.css"), "utf8");
const consoleStyles = await Promise.all(["src/demo.css", "src/console.css"]
  .map((file) => readFile(path.join(here, file), "utf8")));
await writeFile(path.join(out, "console/assets/console.css"), [chartStyles, ...consoleStyles].join("\n"));
console.log(`demo page and console built into ${out} (client ${client.version})`);
