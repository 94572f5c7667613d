//! A progress line on stderr while a person waits on something slow: a
//! spinner, what is being waited on and the seconds so far (a model
//! writing a summary, [`Progress::start`]), or a bar filling as the work
//! gets done (an import, [`Progress::bar`]), redrawn in place and erased
//! when the wait ends. Only where stderr is a terminal (and `TERM` is not
//! `dumb`); a script sees nothing.

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
/// A bar appears only for work lasting longer than this, and is redrawn
/// at most once per [`BAR_REDRAW`].
const BAR_DELAY: Duration = Duration::from_millis(300);
const BAR_REDRAW: Duration = Duration::from_millis(100);

/// A running progress line; dropping it erases the line.
pub struct Progress {
    running: Option<(Sender<()>, JoinHandle<()>)>,
    bar: Option<Bar>,
}

/// A bar's state: the work's size, and when it began and was last drawn.
struct Bar {
    total: u64,
    started: Instant,
    drawn: Option<Instant>,
}

/// Whether a progress line can be drawn: stderr is a terminal that moves
/// its cursor.
fn stderr_shows_progress() -> bool {
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    !dumb && std::io::stderr().is_terminal()
}

impl Progress {
    /// Shows `what` (escaped, cut to the terminal's width) with a spinner,
    /// where stderr is a terminal.
    pub fn start(what: &str) -> Progress {
        if !stderr_shows_progress() {
            return Progress {
                running: None,
                bar: None,
            };
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
            bar: None,
        }
    }

    /// A bar for work of `total` units (bytes to read), drawn by
    /// [`Progress::advance`] where stderr is a terminal.
    pub fn bar(total: u64) -> Progress {
        Progress {
            running: None,
            bar: stderr_shows_progress().then(|| Bar {
                total,
                started: Instant::now(),
                drawn: None,
            }),
        }
    }

    /// Redraws the bar: `done` units of the total, then `what` (`12
    /// sessions from 3 sources`); not before the work has lasted
    /// [`BAR_DELAY`], nor more often than every [`BAR_REDRAW`].
    pub fn advance(&mut self, done: u64, what: &str) {
        let Some(bar) = &mut self.bar else { return };
        let now = Instant::now();
        let due = now.duration_since(bar.started) > BAR_DELAY
            && bar
                .drawn
                .is_none_or(|last| now.duration_since(last) > BAR_REDRAW);
        if !due {
            return;
        }
        bar.drawn = Some(now);
        let _ = std::io::stderr().write_all(bar_line(done, bar.total, what).as_bytes());
    }
}

/// `[#####               ]  25%  what`, after a carriage return.
fn bar_line(done: u64, total: u64, what: &str) -> String {
    let percent = (done * 100).checked_div(total).unwrap_or(100).min(100);
    let filled = usize::try_from(percent / 5).unwrap_or(20);
    format!(
        "\r[{}{}] {percent:>3}%  {what}",
        "#".repeat(filled),
        " ".repeat(20 - filled)
    )
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some((stop, thread)) = self.running.take() {
            drop(stop);
            let _ = thread.join();
        }
        if self.bar.as_ref().is_some_and(|bar| bar.drawn.is_some()) {
            let _ = write!(std::io::stderr(), "\r{ERASE}");
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

    #[test]
    fn a_bar_fills_a_twentieth_per_five_percent() {
        assert_eq!(
            bar_line(25, 100, "3 sessions from 1 sources"),
            "\r[#####               ]  25%  3 sessions from 1 sources"
        );
        assert_eq!(bar_line(0, 7, "x"), "\r[                    ]   0%  x");
        assert_eq!(
            bar_line(9, 7, "x"),
            format!("\r[{}] 100%  x", "#".repeat(20))
        );
        assert_eq!(
            bar_line(0, 0, "x"),
            format!("\r[{}] 100%  x", "#".repeat(20))
        );
    }
}
