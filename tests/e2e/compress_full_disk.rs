//! `ollm-compress --session` on a full disk: the OLLM CLI's format notes a
//! compression by rewriting the whole file, which needs room for a copy of
//! it; the result is given all the same, with one warning, and the
//! session is left as it was.

use std::path::{Path, PathBuf};

use crate::compress::{compress_stored_session, stored_session};
use crate::support::{Sandbox, is_root, json, stderr};

/// A tmpfs of one MiB mounted for the test, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    /// `None` (SKIPPED, a failure under CI=true, which runs as root) when
    /// no file system can be mounted here.
    fn mount(at: &Path) -> Option<SmallDisk> {
        let why = if is_root() {
            std::fs::create_dir_all(at).unwrap();
            let mounted = std::process::Command::new("mount")
                .args(["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs"])
                .arg(at)
                .status();
            match mounted {
                Ok(status) if status.success() => return Some(SmallDisk(at.to_path_buf())),
                Ok(status) => format!("mount -t tmpfs failed ({status})"),
                Err(err) => format!("no mount ({err})"),
            }
        } else {
            "mounting a small tmpfs needs root".to_string()
        };
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true and {why}"
        );
        eprintln!("SKIPPED: {why}");
        None
    }

    /// Fills it up; returns the file that does.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.0.join("filler");
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 4096];
        while file.write_all(&block).is_ok() {}
        let _ = file.sync_all();
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

#[test]
fn on_a_full_disk_compress_session_gives_its_result_and_says_the_note_was_not_stored() {
    let sb = Sandbox::new();
    let Some(disk) = SmallDisk::mount(&sb.work.join("small-disk")) else {
        return;
    };
    let data = disk.0.join("sessions");
    std::fs::write(
        sb.ollm_home.join("config.yaml"),
        format!("services:\n  session:\n    dataDir: {}\n", data.display()),
    )
    .unwrap();
    let (id, _) = stored_session(&sb);
    let file = data.join(format!("{id}.json"));
    assert!(file.is_file(), "not in the OLLM CLI's format");
    let before = std::fs::read(&file).unwrap();
    let filler = disk.fill();

    let out = compress_stored_session(&sb, &id);
    assert!(out.status.success(), "{}", stderr(&out));
    let result = json(&out);
    assert_eq!(result["status"], "compressed", "{result}");
    assert!(!result["compressedMessages"].as_array().unwrap().is_empty());
    assert_eq!(result["compressionCount"], 0, "{result}");
    let warning = result["noteWarning"].as_str().expect("a noteWarning");
    assert!(warning.contains("space"), "{warning}");
    let err = stderr(&out);
    assert_eq!(err.matches("not noted").count(), 1, "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), before, "the session changed");

    // With room again, the next compression is noted.
    std::fs::remove_file(filler).unwrap();
    let out = compress_stored_session(&sb, &id);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json(&out)["compressionCount"], 1);
    assert!(json(&out).get("noteWarning").is_none());
}
