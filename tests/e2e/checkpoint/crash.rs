//! SIGKILL at any instant: a killed snapshot leaves no partial manifest
//! and no temp file once the next run has swept; a killed restore is
//! finished by the next run, so the tree is wholly the old or the target
//! turn, never a mix. Soaked 100 times each.

use std::path::Path;
use std::time::Duration;

use super::Cp;

const KILLS: u32 = 100;

/// A small xorshift: kill times spread without a dependency.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn kill_after(cp: &Cp, args: &[&str], micros: u64) {
    let mut child = cp.sb.std_cmd("ollm-checkpoint").args(args).spawn().unwrap();
    std::thread::sleep(Duration::from_micros(micros));
    let _ = child.kill(); // SIGKILL
    let _ = child.wait();
}

fn fill(cp: &Cp, tag: &str, files: usize) {
    for n in 0..files {
        cp.write(
            &format!("src/m{:03}/f{n}.txt", n % 17),
            &format!("{tag} {n}\n"),
        );
    }
}

/// Every manifest is whole JSON naming a tree, nothing else is there (but
/// the last state's shortcut), and
/// the store's temp directory is empty after a run that took the lock.
fn assert_store_whole(cp: &Cp) {
    let store = cp.sb.ollm_home.join("checkpoints");
    let sessions = store.join("sessions").join(&cp.id);
    for entry in std::fs::read_dir(&sessions).unwrap().flatten() {
        let name = entry.file_name().into_string().unwrap();
        if name == "state" {
            // The last state's shortcut, renamed into place whole.
            continue;
        }
        assert!(
            name.starts_with("turn-") && name.ends_with(".json"),
            "{name}"
        );
        let manifest: serde_json::Value =
            serde_json::from_slice(&std::fs::read(entry.path()).unwrap()).unwrap();
        let tree = manifest["tree"].as_str().unwrap();
        assert!(
            store
                .join("objects")
                .join(&tree[..2])
                .join(&tree[2..])
                .is_file()
        );
    }
    assert_eq!(std::fs::read_dir(store.join("tmp")).unwrap().count(), 0);
}

fn no_temp_files(dir: &Path) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(!name.contains(".ollm-tmp-"), "{}", entry.path().display());
        if entry.file_type().unwrap().is_dir() {
            no_temp_files(&entry.path());
        }
    }
}

#[test]
fn a_snapshot_killed_at_any_instant_leaves_no_partial_manifest_or_temp_file() {
    let cp = Cp::new();
    let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
    fill(&cp, "start", 400);
    let first = cp.snapshot();
    let tmp = cp.sb.ollm_home.join("checkpoints/tmp");
    let mut left_temps = 0;
    for round in 0..KILLS {
        fill(&cp, &format!("round {round}"), 400);
        kill_after(&cp, &["snapshot", "--session", &cp.id], dice.below(120_000));
        left_temps += u32::from(std::fs::read_dir(&tmp).unwrap().count() > 0);
        cp.snapshot();
        assert_store_whole(&cp);
    }
    // Some kills landed mid-write (else the soak proved nothing).
    assert!(left_temps > 0);
    let (code, report) = cp.restore(first, &[]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(cp.read("src/m005/f5.txt").unwrap(), "start 5\n");
}

#[test]
fn a_restore_killed_at_any_instant_is_finished_by_the_next_run() {
    let cp = Cp::new();
    let mut dice = Dice(0x2545_f491_4f6c_dd1d);
    fill(&cp, "old", 300);
    let old = cp.snapshot();
    fill(&cp, "new", 300);
    cp.write("src/added-by-agent.txt", "agent\n");
    let new = cp.snapshot();
    let expected = |tag: &str| {
        (0..300)
            .map(|n| {
                (
                    format!("src/m{:03}/f{n}.txt", n % 17),
                    format!("{tag} {n}\n"),
                )
            })
            .collect::<Vec<_>>()
    };
    let state = |cp: &Cp| -> &'static str {
        let is = |tag: &str| {
            expected(tag)
                .iter()
                .all(|(p, c)| cp.read(p).as_deref() == Some(c))
        };
        let added = cp.path("src/added-by-agent.txt").exists();
        if is("old") && !added {
            "old"
        } else if is("new") && added {
            "new"
        } else {
            "mixed"
        }
    };
    let mut finished = 0;
    for _ in 0..KILLS {
        let target = if state(&cp) == "old" { new } else { old };
        let turn = target.to_string();
        kill_after(
            &cp,
            &["restore", "--session", &cp.id, "--turn", &turn],
            dice.below(250_000),
        );
        // The next run that takes the lock finishes a restore that had begun.
        let out = cp.run(&["snapshot", "--session", &cp.id]);
        assert!(out.status.success());
        finished += u32::from(String::from_utf8_lossy(&out.stderr).contains("interrupted restore"));
        let now = state(&cp);
        assert_ne!(now, "mixed");
        no_temp_files(cp.work());
        assert_store_whole(&cp);
    }
    // Some kills landed after the plan was written (else the soak proved nothing).
    assert!(finished > 0);
}
