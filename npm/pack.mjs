#!/usr/bin/env node
// Packs the npm packages from programs that are already built (it never runs
// cargo): `ollm-tools` (launchers and the compiled TypeScript client) and the
// package of programs for this platform, e.g. `ollm-tools-linux-x64`.
//
// usage: node npm/pack.mjs --bin-dir target/x86_64-unknown-linux-gnu/debug --out DIR [--npm-tools target/npm-tools]
//        node npm/pack.mjs --main-only --out DIR      (ollm-tools alone)
// Prints {"main": TARBALL, "platform": TARBALL, "reused": BOOL} on stdout.
// --npm-tools is the project where `.ci/run` installs the pinned
// typescript, @types/node and esbuild.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const fail = (message) => {
  process.stderr.write(`pack.mjs: ${message}\n`);
  process.exit(1);
};

const { values } = parseArgs({
  options: {
    "bin-dir": { type: "string" },
    out: { type: "string" },
    "npm-tools": { type: "string", default: join(repo, "target", "npm-tools") },
    "main-only": { type: "boolean", default: false },
  },
});
if (values.out === undefined) fail("--out is required");
if (values["bin-dir"] === undefined && !values["main-only"]) fail("--bin-dir is required (or --main-only)");
const binDir = resolve(values["bin-dir"] ?? ".");
const out = resolve(values.out);
const npmTools = resolve(values["npm-tools"]);

// One version everywhere: the crate's, the packages' and the client's.
const cargoVersion = /^version = "([^"]+)"/m.exec(readFileSync(join(repo, "Cargo.toml"), "utf8"))?.[1];
const mainDir = join(here, "ollm-tools");
const manifest = JSON.parse(readFileSync(join(mainDir, "package.json"), "utf8"));
const clientVersion = /VERSION = "([^"]+)"/.exec(readFileSync(join(mainDir, "src", "binary.ts"), "utf8"))?.[1];
const platformPackages = Object.entries(manifest.optionalDependencies ?? {});
for (const [what, version] of [
  ["npm/ollm-tools/package.json", manifest.version],
  ["VERSION in npm/ollm-tools/src/binary.ts", clientVersion],
  ...platformPackages.map(([name, version]) => [`the optional dependency ${name}`, version]),
]) {
  if (version !== cargoVersion) fail(`${what} is ${version}, Cargo.toml's version is ${cargoVersion}: make them equal`);
}

const [os, cpu] = [process.platform, process.arch];
const platformName = `ollm-tools-${os}-${cpu}`;
if (!platformPackages.some(([name]) => name === platformName)) {
  fail(`no package of programs for ${os}-${cpu}: add ${platformName} to optionalDependencies and PLATFORM_PACKAGES`);
}
const programs = Object.keys(manifest.bin);
for (const program of values["main-only"] ? [] : programs) {
  if (!existsSync(join(binDir, program))) fail(`${join(binDir, program)} is missing: build the programs first (cargo build --workspace)`);
}

const pack = (dir) => {
  const reply = execFileSync("npm", ["pack", "--json", "--pack-destination", out], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return join(out, JSON.parse(reply)[0].filename);
};

const stage = join(out, "stage");
rmSync(stage, { recursive: true, force: true });

// The main package: launchers, the compiled client and its declarations.
const mainStage = join(stage, "ollm-tools");
mkdirSync(mainStage, { recursive: true });
for (const file of ["package.json", "README.md", "bin"]) cpSync(join(mainDir, file), join(mainStage, file), { recursive: true });
// tsc checks the client and writes its declarations; esbuild bundles the
// client and the launcher into one module each: a dozen small modules
// cost Node about 1 ms each to load, most of the import time.
const tsc = join(npmTools, "node_modules", "typescript", "bin", "tsc");
const esbuild = join(npmTools, "node_modules", "esbuild", "bin", "esbuild");
for (const tool of [tsc, esbuild]) if (!existsSync(tool)) fail(`no ${tool} (.ci/run installs it)`);
execFileSync(
  process.execPath,
  [
    tsc,
    "-p",
    mainDir,
    "--emitDeclarationOnly",
    "--outDir",
    join(mainStage, "dist"),
    "--typeRoots",
    join(npmTools, "node_modules", "@types"),
  ],
  { stdio: ["ignore", "inherit", "inherit"] },
);
execFileSync(
  esbuild,
  [
    join(mainDir, "src", "index.ts"),
    join(mainDir, "src", "launch.ts"),
    "--bundle",
    "--format=esm",
    "--platform=node",
    "--target=node18",
    "--log-level=warning",
    `--outdir=${join(mainStage, "dist")}`,
  ],
  { stdio: ["ignore", "inherit", "inherit"] },
);
if (values["main-only"]) {
  const main = pack(mainStage);
  rmSync(stage, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ main })}\n`);
  process.exit(0);
}

// The platform's package: the programs, stripped of their symbols (maturin
// and cargo-dist strip too; they are most of a debug build's size). npm pack
// compresses at gzip's level 9, which takes most of a minute for a debug
// build's programs, so a tarball made from these very files (same sizes and
// times, same packing script) is kept and reused, as cargo reuses a build.
const fingerprint = JSON.stringify({
  script: createHash("sha256").update(readFileSync(fileURLToPath(import.meta.url))).digest("hex"),
  version: cargoVersion,
  programs: programs.map((program) => {
    const { size, mtimeMs } = statSync(join(binDir, program));
    return [program, size, mtimeMs];
  }),
});
const platformTarball = join(out, `${platformName}-${cargoVersion}.tgz`);
const fingerprintFile = `${platformTarball}.fingerprint`;
const upToDate =
  existsSync(platformTarball) && existsSync(fingerprintFile) && readFileSync(fingerprintFile, "utf8") === fingerprint;
const platformStage = join(stage, platformName);
const stagePlatform = () => {
  mkdirSync(join(platformStage, "bin"), { recursive: true });
  writeFileSync(
    join(platformStage, "package.json"),
    `${JSON.stringify(
      {
        name: platformName,
        version: cargoVersion,
        description: `The ollm programs for ${os}-${cpu}, installed by ollm-tools`,
        license: manifest.license,
        os: [os],
        cpu: [cpu],
        files: ["bin"],
        preferUnplugged: true,
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(platformStage, "README.md"),
    `# ${platformName}\n\nThe ollm programs (${programs.join(", ")}) built for ${os}-${cpu}. ` +
      "Install `ollm-tools`, which depends on this package and runs them.\n",
  );
  const canStrip = (() => {
    try {
      execFileSync("strip", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  for (const program of programs) {
    const target = join(platformStage, "bin", program);
    if (canStrip) execFileSync("strip", ["--strip-all", "-o", target, join(binDir, program)]);
    else copyFileSync(join(binDir, program), target);
    chmodSync(target, 0o755);
  }
};

const main = pack(mainStage);
if (!upToDate) {
  rmSync(fingerprintFile, { force: true });
  stagePlatform();
  if (pack(platformStage) !== platformTarball) fail(`npm pack did not make ${platformTarball}`);
  writeFileSync(fingerprintFile, fingerprint);
}
rmSync(stage, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ main, platform: platformTarball, reused: upToDate })}\n`);
