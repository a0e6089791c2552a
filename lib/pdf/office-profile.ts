// The user profile each soffice starts with: a fresh directory per process, seeded so that start-up
// skips work a headless converter never needs.
//
// LibreOffice (7.2 and later) runs its VCL graphics render tests whenever the profile's last-run
// version is older than the installation's (desktop/source/app/app.cxx, utl::isProductVersionUpgraded).
// Only a start with a user interface records the version, so a headless soffice on a fresh profile ran
// them at every start: 3.3 s of CPU drawing 4096-pixel test bitmaps before it accepted a connection
// (3.5 s of CPU and 3.7 s to the first connection, against 0.26 s and 0.3-0.6 s with the version
// recorded; LibreOffice 7.4, 2026-11-30). A slot replaced every 1,000 conversions paid that ~3 ms a
// document, and the first document after a server started waited for it.
import fsp from "node:fs/promises";
import path from "node:path";
import { findExecutable } from "@/lib/pdf/office-dependencies";

/** Where an installation keeps its version (`<install>/program/soffice` -> `<install>/share/registry/main.xcd`). */
const VERSION_PROP = /<prop oor:name="ooSetupVersion">\s*<value>(\d+\.\d+)<\/value>/;

/**
 * The installed LibreOffice's major.minor version ("7.4"), read from its configuration; null when the
 * installation is laid out otherwise (soffice then starts as it did without a seeded profile).
 */
export async function findOfficeVersion(sofficePath: string): Promise<string | null> {
  const executable = await findExecutable(sofficePath);
  if (!executable) return null;
  try {
    const program = path.dirname(await fsp.realpath(executable));
    const registry = await fsp.readFile(path.join(program, "..", "share", "registry", "main.xcd"), "latin1");
    return VERSION_PROP.exec(registry)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Writes the profile's settings before soffice first reads it: the version it last ran, so nothing counts as an upgrade. */
export async function seedProfile(profileDir: string, officeVersion: string | null): Promise<void> {
  if (!officeVersion) return;
  const user = path.join(profileDir, "user");
  await fsp.mkdir(user, { recursive: true });
  await fsp.writeFile(
    path.join(user, "registrymodifications.xcu"),
    `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Setup/Product"><prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>${officeVersion}</value></prop></item>
</oor:items>
`,
  );
}
