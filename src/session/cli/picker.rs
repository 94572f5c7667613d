//! The interactive session picker of `resume`: nucleo-picker (fzf-like,
//! helix's matcher) on the terminal of stderr, newest first, arrow keys,
//! type to filter, a hint on the bottom line. Its first screen is drawn
//! from the first page of the listing; only then does another thread read
//! the rest and push it in, while the person reads and types (the count
//! beside the prompt grows), so a store of 100,000 sessions opens as fast
//! as one of 100.

use std::convert::Infallible;
use std::io::{self, IsTerminal, StderrLock, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use crossterm::cursor::{MoveTo, RestorePosition, SavePosition};
use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::style::Print;
use crossterm::terminal::{self, Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{QueueableCommand, execute};
use nucleo_picker::error::PickError;
use nucleo_picker::event::{StdinReader, keybind_no_multi};
use nucleo_picker::{Injector, PickerOptions, Render, Terminal};

use super::rows::{SessionRow, project, short};
use super::when;
use crate::error::{Error, Result};
use crate::output::escape_line;
use crate::text::shorten;

/// What the bottom line says (79 characters: whole at 80 columns).
const HINT: &str =
    "Resume which session? Type to filter, ↑↓ to move, Enter to choose, Esc to leave";

/// The characters of a project's name shown before the title.
const PROJECT_WIDTH: usize = 12;

/// Whether a picker can be shown: stdin and stderr are terminals (stdout
/// may be captured, as in `id=$(ollm-session resume)`).
pub(crate) fn available() -> bool {
    io::stdin().is_terminal() && io::stderr().is_terminal()
}

/// One session in the picker: its id and its line.
pub struct Choice {
    id: String,
    line: String,
}

impl Choice {
    /// When, where, how long, what; escaped (the picker cuts it to the
    /// terminal's width, so the title, the longest, comes last).
    pub fn new(row: &SessionRow) -> Choice {
        let s = &row.summary;
        let project = s.workspace.as_deref().map(project).unwrap_or_default();
        let mut label = row.label();
        if label.is_empty() {
            label = if s.message_count == 0 {
                "(no messages yet)".into()
            } else {
                "(untitled)".into()
            };
        }
        let text = format!(
            "{}  {:<12} {:<PROJECT_WIDTH$} {:>4} msgs  {label}",
            short(&s.session_id),
            when::ago(&s.last_activity, row.now),
            shorten(&project, PROJECT_WIDTH - 1),
            s.message_count,
        );
        Choice {
            id: s.session_id.clone(),
            line: escape_line(&text).into_owned(),
        }
    }
}

struct Lines;

impl Render<Choice> for Lines {
    type Str<'a> = &'a str;

    fn render<'a>(&self, choice: &'a Choice) -> &'a str {
        &choice.line
    }
}

/// Where the rest of the listing goes while the picker runs.
pub struct Feed {
    injector: Injector<Choice, Lines>,
    closed: Arc<AtomicBool>,
}

impl Feed {
    /// Adds `choices` after those already shown; `false` once the picker
    /// has closed (the rest need not be read).
    pub fn push(&self, choices: Vec<Choice>) -> bool {
        if self.closed.load(Ordering::Relaxed) {
            return false;
        }
        self.injector.push_batch(choices);
        true
    }
}

/// Lets the person choose among `first` (newest first) and what `rest`
/// pushes into its [`Feed`] after them, on another thread, once the first
/// screen is drawn. The id chosen, or `None` when they leave with Esc or
/// ctrl-c. The picker does not wait for `rest` to end: a choice made
/// while a large page is being read is taken at once (`rest` stops at its
/// next push, or with the process).
pub(crate) fn pick<F>(first: Vec<Choice>, rest: F) -> Result<Option<String>>
where
    F: FnOnce(&Feed) + Send + 'static,
{
    let mut picker = PickerOptions::new()
        .reversed(true)
        .picker::<Choice, Lines>(Lines);
    let injector = picker.injector();
    injector.push_batch(first);
    let closed = Arc::new(AtomicBool::new(false));
    let feed = Feed {
        injector,
        closed: closed.clone(),
    };
    let (drawn, first_screen) = mpsc::channel();
    std::thread::spawn(move || {
        // Nothing more is read if the picker never drew its first screen.
        if first_screen.recv().is_ok() {
            rest(&feed);
        }
    });
    // Said after the picker has given the terminal back.
    let held = crate::diag::hold();
    let mut screen = Screen {
        out: io::stderr().lock(),
        columns: 80,
        rows: 24,
        drawn: Some(drawn),
    };
    let picked = picker
        .pick_with_terminal_io(
            StdinReader::new(keybind_no_multi::<Infallible>),
            &mut screen,
        )
        .map(|choice| choice.map(|c| c.id.clone()));
    closed.store(true, Ordering::Relaxed);
    drop(screen);
    drop(held);
    match picked {
        Ok(id) => Ok(id),
        Err(PickError::UserInterrupted) => Ok(None),
        Err(PickError::IO(err)) => Err(Error::io("the terminal", &err)),
        Err(other) => Err(Error::io(
            "the terminal",
            &io::Error::other(format!("{other:?}")),
        )),
    }
}

/// The picker's terminal: stderr's alternate screen less its bottom line,
/// where [`HINT`] is written after the frames (nucleo-picker 0.12.2 calls
/// a terminal's `end_frame`, not its `end_render`).
struct Screen {
    out: StderrLock<'static>,
    columns: u16,
    rows: u16,
    /// Told once the first frame is on the screen.
    drawn: Option<mpsc::Sender<()>>,
}

impl Write for Screen {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl Terminal for Screen {
    fn init(&mut self) -> io::Result<()> {
        terminal::enable_raw_mode()?;
        execute!(self.out, EnterAlternateScreen, EnableBracketedPaste)
    }

    fn cleanup(&mut self) -> io::Result<()> {
        terminal::disable_raw_mode()?;
        execute!(self.out, DisableBracketedPaste, LeaveAlternateScreen)
    }

    /// The terminal's size less the hint's line (80×24 when the terminal
    /// does not say, as a pseudo-terminal made by `script` may not).
    fn size(&mut self) -> io::Result<(u16, u16)> {
        let (columns, rows) = match terminal::size() {
            Ok((c, r)) if c > 0 && r > 1 => (c, r),
            _ => (80, 24),
        };
        (self.columns, self.rows) = (columns, rows);
        Ok((columns, rows - 1))
    }

    /// After a frame (the first is drawn before the first call): the hint
    /// again when the frame may have cleared the screen.
    fn end_frame(&mut self, changed: bool) -> io::Result<()> {
        if changed || self.drawn.is_some() {
            let columns = usize::from(self.columns);
            let hint = if HINT.chars().count() > columns {
                shorten(HINT, columns.saturating_sub(1))
            } else {
                HINT.to_string()
            };
            self.out
                .queue(SavePosition)?
                .queue(MoveTo(0, self.rows.saturating_sub(1)))?
                .queue(Clear(ClearType::CurrentLine))?
                .queue(Print(hint))?
                .queue(RestorePosition)?;
            self.out.flush()?;
        }
        if let Some(drawn) = self.drawn.take() {
            let _ = drawn.send(());
        }
        Ok(())
    }
}
