//! A progress line on stderr while a person waits on something slow (a
//! model writing a summary): a spinner, what is being waited on and the
//! seconds so far, redrawn in place and erased when the wait ends. Only
//! where stderr is a terminal (and `TERM` is not `dumb`); a script sees
//! nothing.

use std::io::{IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use unicode_width::UnicodeWidthChar;

use super::escape::escape_line;

const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK: Duration = Duration::from_millis(125);
/// Erases from the cursor to the end of the line.
const ERASE: &str = "\u{1b}[K";

/// A running progress line; dropping it erases the line.
pub struct Progress {
    running: Option<(Sender<()>, JoinHandle<()>)>,
}

impl Progress {
    /// Shows `what` (escaped, cut to the terminal's width) with a spinner,
    /// where stderr is a terminal.
    pub fn start(what: &str) -> Progress {
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        if dumb || !std::io::stderr().is_terminal() {
            return Progress { running: None };
        }
        let width = terminal_size::terminal_size_of(std::io::stderr())
            .map_or(80, |(w, _)| usize::from(w.0));
        // Room for the spinner, the seconds and the cursor: a line that
        // wrapped could not be redrawn in place.
        let what = cut(&escape_line(what), width.saturating_sub(12));
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut stderr = std::io::stderr();
            for frame in FRAMES.iter().cycle() {
                let seconds = started.elapsed().as_secs();
                let _ = write!(stderr, "\r{frame} {what} {seconds}s{ERASE}");
                let _ = stderr.flush();
                match stopped.recv_timeout(TICK) {
                    Err(RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            }
            let _ = write!(stderr, "\r{ERASE}");
            let _ = stderr.flush();
        });
        Progress {
            running: Some((stop, thread)),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some((stop, thread)) = self.running.take() {
            drop(stop);
            let _ = thread.join();
        }
    }
}

/// `text` cut to `width` display columns, ending in `…` when cut.
fn cut(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w >= width {
            out.push('…');
            return out;
        }
        out.push(c);
        used += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_description_is_cut_to_fit_one_line() {
        assert_eq!(cut("summarizing", 40), "summarizing");
        let cut_text = cut(&"x".repeat(100), 20);
        assert_eq!(cut_text.chars().count(), 20);
        assert!(cut_text.ends_with('…'));
        assert_eq!(cut("日本語のテキスト", 7).chars().count(), 4);
    }
}
