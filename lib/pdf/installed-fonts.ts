// The font families a local LibreOffice can use: it finds fonts through fontconfig, so `fc-list`
// lists them. Read once per process (fonts are installed with the system, not at run time).
import { execFile } from "node:child_process";
import { promisify } from "node:util";

let families: Promise<string[] | null> | null = null;

/** Family names (each alias of a font counts), or null when fontconfig cannot be asked. */
export function installedFontFamilies(): Promise<string[] | null> {
  families ??= promisify(execFile)("fc-list", [":", "family"], { timeout: 10_000, maxBuffer: 8 * 1024 * 1024 }).then(
    ({ stdout }) => [
      ...new Set(
        stdout
          .split("\n")
          .flatMap((line) => line.split(","))
          .map((f) => f.trim())
          .filter(Boolean),
      ),
    ],
    () => null,
  );
  return families;
}
