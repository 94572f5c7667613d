// Where the programs are: a directory given by the caller or by
// OLLM_TOOLS_BIN_DIR, else the per-platform package npm installed beside this
// one as an optional dependency (the scheme of esbuild, biome and Codex),
// else the programs on PATH (`cargo install` put them there).
import { accessSync, constants, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { BinaryNotFoundError } from "./errors.js";

/** The platforms a package of programs is built for, by `${process.platform}-${process.arch}`. */
export const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x64": "ollm-tools-linux-x64",
};

/** The programs the package carries. */
export const PROGRAMS = [
  "ollm",
  "ollm-session",
  "ollm-compress",
  "ollm-loopcheck",
  "ollm-context",
  "ollm-discover",
  "ollm-env",
  "ollm-mcp",
  "ollm-checkpoint",
] as const;

export type Program = (typeof PROGRAMS)[number];

const found = new Map<string, string>();

/**
 * The path of `program`: in `binDir` when given, else in `$OLLM_TOOLS_BIN_DIR`,
 * else in the platform package. Throws {@link BinaryNotFoundError}, saying
 * how to install it, when it is in none of them.
 */
export function findBinary(program: string, binDir?: string): string {
  const dir = binDir ?? process.env["OLLM_TOOLS_BIN_DIR"];
  const cacheKey = `${dir ?? ""}\0${program}`;
  const cached = found.get(cacheKey);
  if (cached !== undefined) return cached;
  const path = dir !== undefined && dir !== "" ? inDirectory(program, dir) : inPlatformPackage(program);
  found.set(cacheKey, path);
  return path;
}

function inDirectory(program: string, dir: string): string {
  const path = join(dir, program);
  if (!executable(path)) {
    throw new BinaryNotFoundError(
      program,
      `${program}: not found in ${dir} (named by ${
        dir === process.env["OLLM_TOOLS_BIN_DIR"] ? "OLLM_TOOLS_BIN_DIR" : "binDir"
      }); point it at the directory holding the ollm programs, or unset it to use the ones npm installed`,
    );
  }
  return path;
}

function inPlatformPackage(program: string): string {
  const platform = `${process.platform}-${process.arch}`;
  const pkg = PLATFORM_PACKAGES[platform];
  if (pkg === undefined) {
    const onPath = onSearchPath(program);
    if (onPath !== undefined) return onPath;
    throw new BinaryNotFoundError(
      program,
      `${program}: ollm-tools has no prebuilt programs for ${platform} (there are for ${Object.keys(
        PLATFORM_PACKAGES,
      ).join(", ")}); build them with \`cargo install ollm-tools\` and set OLLM_TOOLS_BIN_DIR to their directory (~/.cargo/bin)`,
    );
  }
  let manifest: string;
  try {
    manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  } catch {
    const onPath = onSearchPath(program);
    if (onPath !== undefined) return onPath;
    throw new BinaryNotFoundError(
      program,
      `${program}: the package ${pkg}, which holds the programs for ${platform}, is not installed (npm skips optional dependencies with --omit=optional or --no-optional) and ${program} is not on PATH; install it with \`npm install ${pkg}@${VERSION}\`, put the programs on PATH (\`cargo install --locked --path .\` in a checkout), or set OLLM_TOOLS_BIN_DIR to a directory holding them`,
    );
  }
  const path = join(dirname(manifest), "bin", program);
  if (!executable(path)) {
    throw new BinaryNotFoundError(
      program,
      `${program}: not found in ${dirname(path)} (the package ${pkg} is incomplete); reinstall it with \`npm install ${pkg}@${VERSION}\``,
    );
  }
  return path;
}

/** This package's own launchers (`bin/ollm-session.js`, …), which npm puts
 * on PATH as `node_modules/.bin/ollm-session`: never taken for the program. */
const LAUNCHERS = join(dirname(fileURLToPath(import.meta.url)), "..", "bin");

/** `program` in a directory of PATH, other than one of our launchers. */
function onSearchPath(program: string): string | undefined {
  let launchers: string;
  try {
    launchers = realpathSync(LAUNCHERS);
  } catch {
    launchers = LAUNCHERS;
  }
  for (const dir of (process.env["PATH"] ?? "").split(delimiter)) {
    if (dir === "") continue;
    const path = join(dir, program);
    if (!executable(path)) continue;
    try {
      if (dirname(realpathSync(path)) === launchers) continue;
    } catch {
      continue;
    }
    return path;
  }
  return undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** This package's version; the platform package must have the same. */
export const VERSION = "0.1.0";
