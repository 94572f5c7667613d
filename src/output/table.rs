//! A small table printer: a header row, one row per item, columns two
//! spaces apart, fitted to a width by cutting the widest cells with `…`.
//! Every cell is escaped ([`escape_line`]) before it is measured, so a cell
//! can neither drive the terminal nor break the table across lines.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::escape::escape_line;

const GAP: &str = "  ";
const ELLIPSIS: char = '…';
const BOLD: &str = "\u{1b}[1m";
const RESET: &str = "\u{1b}[0m";

/// How a column's cells line up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Align {
    #[default]
    Left,
    /// Numbers: right-aligned so their digits line up.
    Right,
}

/// Rows of text cells under a header row.
#[derive(Debug, Clone, Default)]
pub struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    whole: Vec<bool>,
    /// The column a row is read by, and the width it keeps before any
    /// column not kept whole is cut.
    at_least: Option<(usize, usize)>,
    /// Columns left out, in this order, while the table is too narrow for
    /// `at_least`.
    optional: Vec<usize>,
    rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new<S: Into<String>>(headers: impl IntoIterator<Item = S>) -> Table {
        let headers: Vec<String> = headers.into_iter().map(Into::into).collect();
        let align = vec![Align::Left; headers.len()];
        let whole = vec![false; headers.len()];
        Table {
            headers,
            align,
            whole,
            at_least: None,
            optional: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Keeps `min` display columns of column `column` (all of it when
    /// shorter) before cutting any other column that is not kept whole.
    #[must_use]
    pub fn at_least(mut self, column: usize, min: usize) -> Table {
        if column < self.headers.len() {
            self.at_least = Some((column, min));
        }
        self
    }

    /// Leaves column `column` out of a table too narrow to give the
    /// [`Table::at_least`] column its width; columns go in the order they
    /// were named here.
    #[must_use]
    pub fn optional(mut self, column: usize) -> Table {
        if column < self.headers.len() {
            self.optional.push(column);
        }
        self
    }

    /// Keeps column `column` (from 0) whole while the others can give way:
    /// the column a person reads the table for (a key, an id).
    #[must_use]
    pub fn whole(mut self, column: usize) -> Table {
        if let Some(slot) = self.whole.get_mut(column) {
            *slot = true;
        }
        self
    }

    /// Sets how column `column` (from 0) lines up.
    #[must_use]
    pub fn align(mut self, column: usize, align: Align) -> Table {
        if let Some(slot) = self.align.get_mut(column) {
            *slot = align;
        }
        self
    }

    /// Adds a row; missing cells are empty, extra cells are dropped.
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) {
        let mut row: Vec<String> = cells
            .into_iter()
            .take(self.headers.len())
            .map(Into::into)
            .collect();
        row.resize(self.headers.len(), String::new());
        self.rows.push(row);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The table as text, each line ending in a newline. `width` is the
    /// terminal's (no limit when `None`); `bold_header` only where colour
    /// is allowed.
    pub fn render(&self, width: Option<usize>, bold_header: bool) -> String {
        let header: Vec<String> = self
            .headers
            .iter()
            .map(|h| escape_line(h).into_owned())
            .collect();
        let rows: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| row.iter().map(|c| escape_line(c).into_owned()).collect())
            .collect();
        let mut header_widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
        let mut widths = header_widths.clone();
        for row in &rows {
            for (slot, cell) in widths.iter_mut().zip(row) {
                *slot = (*slot).max(cell.width());
            }
        }
        let shown = self.shown(&widths, width);
        let (mut header, mut rows) = (header, rows);
        keep_shown(&mut header, &shown);
        rows.iter_mut().for_each(|row| keep_shown(row, &shown));
        keep_shown(&mut widths, &shown);
        keep_shown(&mut header_widths, &shown);
        let mut align = self.align.clone();
        keep_shown(&mut align, &shown);
        let mut whole = self.whole.clone();
        keep_shown(&mut whole, &shown);
        let at_least = self.at_least.and_then(|(column, min)| {
            let position = shown[..column].iter().filter(|&&s| s).count();
            shown[column].then_some((position, min))
        });
        if let Some(width) = width {
            fit(&mut widths, &header_widths, &whole, at_least, width);
        }
        let mut out = String::new();
        let header_line = line(&header, &widths, &align);
        if bold_header {
            out.push_str(BOLD);
            out.push_str(&header_line);
            out.push_str(RESET);
        } else {
            out.push_str(&header_line);
        }
        out.push('\n');
        for row in &rows {
            out.push_str(&line(row, &widths, &align));
            out.push('\n');
        }
        out
    }

    /// Which columns are shown at `total` columns: every one, unless the
    /// [`Table::at_least`] column would get less than its width, when the
    /// optional columns go, in order, until it fits.
    fn shown(&self, widths: &[usize], total: Option<usize>) -> Vec<bool> {
        let mut shown = vec![true; widths.len()];
        let (Some(total), Some((column, min))) = (total, self.at_least) else {
            return shown;
        };
        let wanted = widths[column].min(min);
        for &optional in &self.optional {
            let count = shown.iter().filter(|&&s| s).count();
            let others: usize = (0..widths.len())
                .filter(|&i| shown[i] && i != column)
                .map(|i| widths[i])
                .sum();
            if others + GAP.len() * count.saturating_sub(1) + wanted <= total {
                break;
            }
            shown[optional] = false;
        }
        shown
    }
}

/// `cells` without the columns not `shown`.
fn keep_shown<T>(cells: &mut Vec<T>, shown: &[bool]) {
    let mut column = 0;
    cells.retain(|_| {
        column += 1;
        shown[column - 1]
    });
}

fn line(cells: &[String], widths: &[usize], align: &[Align]) -> String {
    let mut line = String::new();
    for (i, (cell, &width)) in cells.iter().zip(widths).enumerate() {
        if i > 0 {
            line.push_str(GAP);
        }
        let cell = truncate(cell, width);
        let pad = width.saturating_sub(cell.width());
        if align[i] == Align::Right {
            line.extend(std::iter::repeat_n(' ', pad));
            line.push_str(&cell);
        } else {
            line.push_str(&cell);
            line.extend(std::iter::repeat_n(' ', pad));
        }
    }
    line.truncate(line.trim_end_matches(' ').len());
    line
}

/// Narrows the widest columns until the columns and the gaps between them
/// fit `total`: first no column below its header's width, no `whole`
/// column at all and the `at_least` column not below its width, then the
/// `whole` ones down to their headers too, and if that is not enough, down
/// to one character each.
fn fit(
    widths: &mut [usize],
    headers: &[usize],
    whole: &[bool],
    at_least: Option<(usize, usize)>,
    total: usize,
) {
    let gaps = GAP.len() * widths.len().saturating_sub(1);
    let available = total.saturating_sub(gaps);
    let to_headers: Vec<usize> = widths
        .iter()
        .zip(headers)
        .map(|(&w, &h)| w.min(h).max(1))
        .collect();
    let keeping_whole: Vec<usize> = widths
        .iter()
        .zip(&to_headers)
        .zip(whole)
        .enumerate()
        .map(|(i, ((&w, &floor), &whole))| match at_least {
            _ if whole => w,
            Some((column, min)) if column == i => w.min(min.max(floor)),
            _ => floor,
        })
        .collect();
    let _ = shrink(widths, &keeping_whole, available)
        || shrink(widths, &to_headers, available)
        || shrink(widths, &vec![1; widths.len()], available);
}

/// Narrows the widest column that is above its floor, a step at a time;
/// whether the columns now fit `available`.
fn shrink(widths: &mut [usize], floors: &[usize], available: usize) -> bool {
    loop {
        let sum: usize = widths.iter().sum();
        if sum <= available {
            return true;
        }
        let Some((widest, &max)) = widths
            .iter()
            .enumerate()
            .filter(|&(i, &w)| w > floors[i])
            .max_by_key(|&(i, &w)| (w, usize::MAX - i))
        else {
            return false;
        };
        let next = widths
            .iter()
            .enumerate()
            .filter(|&(i, &w)| i != widest && w < max && w > floors[i])
            .map(|(_, &w)| w)
            .max()
            .unwrap_or(0)
            .max(floors[widest]);
        // Down to the next-widest column, or as little as makes it fit.
        let step = (max - next).min(sum - available).max(1);
        widths[widest] = max - step;
    }
}

/// `cell` cut to `width` display columns, ending in `…` when cut.
fn truncate(cell: &str, width: usize) -> std::borrow::Cow<'_, str> {
    if cell.width() <= width {
        return cell.into();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in cell.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    if width > 0 {
        out.push(ELLIPSIS);
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut table = Table::new(["KEY", "PRIORITY", "CONTENT"]).align(1, Align::Right);
        table.row(["rules", "80", "Use tabs, never spaces."]);
        table.row([
            "spec",
            "60",
            "The specification of the whole project, which is rather long and goes on for a while \
             past any terminal's edge, as documents do.",
        ]);
        table
    }

    fn widest_line(text: &str) -> usize {
        text.lines().map(UnicodeWidthStr::width).max().unwrap_or(0)
    }

    #[test]
    fn a_whole_column_is_cut_only_when_nothing_else_can_give_way() {
        let mut table = Table::new(["ORIGIN", "KEY", "NOTE"]).whole(1);
        table.row([
            "default",
            "services.compression.summarizer.maxInputTokens",
            &"n".repeat(90),
        ]);
        let shown = table.render(Some(60), false);
        assert!(
            shown.contains("services.compression.summarizer.maxInputTokens"),
            "{shown}"
        );
        assert!(shown.lines().all(|l| l.width() <= 60), "{shown}");
        // Too narrow for it: cut like any other column rather than overflow.
        let narrow = table.render(Some(30), false);
        assert!(narrow.lines().all(|l| l.width() <= 30), "{narrow}");
    }

    #[test]
    fn a_table_fits_80_columns_cutting_the_widest_cell() {
        let text = sample().render(Some(80), false);
        assert_eq!(widest_line(&text), 80, "{text}");
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("KEY    PRIORITY  CONTENT"), "{text}");
        assert_eq!(lines[1], "rules        80  Use tabs, never spaces.");
        assert!(lines[2].ends_with('…'), "{text}");
        assert!(lines[2].starts_with("spec         60  The specification"));
    }

    #[test]
    fn a_table_at_120_columns_shows_more_of_the_cell() {
        let text = sample().render(Some(120), false);
        assert_eq!(widest_line(&text), 120, "{text}");
        assert!(text.contains("goes on for a while past any"), "{text}");
    }

    #[test]
    fn optional_columns_give_way_in_order_to_the_column_read_by() {
        let table = || {
            let mut table = Table::new(["ID", "WHEN", "MODEL", "TITLE"])
                .at_least(3, 40)
                .optional(1)
                .optional(2);
            table.row([
                "abcd1234",
                "2026-11-29 08:55",
                "llama3.2:3b",
                &"t".repeat(60),
            ]);
            table
        };
        let wide = table().render(Some(120), false);
        assert!(wide.starts_with("ID        WHEN"), "{wide}");
        assert!(wide.contains(&"t".repeat(60)), "{wide}");
        // Leaving WHEN out is enough at 70; MODEL stays.
        let middle = table().render(Some(70), false);
        assert!(
            middle.starts_with("ID        MODEL        TITLE"),
            "{middle}"
        );
        assert_eq!(widest_line(&middle), 70, "{middle}");
        let narrow = table().render(Some(56), false);
        assert!(narrow.starts_with("ID        TITLE"), "{narrow}");
        assert!(narrow.contains(&"t".repeat(45)), "{narrow}");
        // Without a width, nothing is left out.
        assert!(table().render(None, false).contains("MODEL"));
    }

    #[test]
    fn the_column_read_by_keeps_its_width_while_others_are_cut() {
        let mut table = Table::new(["ID", "PROJECT", "TITLE"]).at_least(2, 40);
        table.row(["abcd1234", &"p".repeat(30), &"t".repeat(50)]);
        let text = table.render(Some(60), false);
        let row = text.lines().nth(1).unwrap();
        assert!(row.ends_with(&format!("{}…", "t".repeat(39))), "{text}");
        assert!(row.contains("ppppp…"), "{text}");
    }

    #[test]
    fn a_table_narrower_than_the_terminal_is_not_padded() {
        let mut table = Table::new(["A", "B"]);
        table.row(["x", "y"]);
        assert_eq!(table.render(Some(120), false), "A  B\nx  y\n");
        assert_eq!(table.render(None, false), "A  B\nx  y\n");
    }

    #[test]
    fn the_header_row_is_there_when_there_are_no_rows() {
        let table = Table::new(["KEY", "VALUE"]);
        assert_eq!(table.render(Some(80), false), "KEY  VALUE\n");
    }

    #[test]
    fn several_wide_columns_share_the_width() {
        let mut table = Table::new(["A", "B", "C"]);
        table.row(["a".repeat(100), "b".repeat(60), "c".repeat(10)]);
        let text = table.render(Some(80), false);
        assert_eq!(widest_line(&text), 80, "{text}");
        let row = text.lines().nth(1).unwrap();
        assert!(row.ends_with(&"c".repeat(10)), "{row}");
        assert_eq!(row.matches('…').count(), 2, "{row}");
    }

    #[test]
    fn headers_are_cut_only_when_the_cells_cannot_give_enough() {
        let mut table = Table::new(["KEY", "PRIORITY", "CONTENT"]);
        table.row(["k", "5", &"x".repeat(60)]);
        let text = table.render(Some(30), false);
        assert_eq!(text.lines().next().unwrap(), "KEY  PRIORITY  CONTENT");
        assert_eq!(widest_line(&text), 30, "{text}");
        let tiny = table.render(Some(12), false);
        assert!(widest_line(&tiny) <= 12, "{tiny}");
    }

    #[test]
    fn wide_characters_count_two_columns() {
        let mut table = Table::new(["NAME", "NOTE"]);
        table.row(["日本語のファイル名", "x"]);
        let text = table.render(None, false);
        assert_eq!(text.lines().nth(1).unwrap(), "日本語のファイル名  x");
        assert_eq!(text.lines().next().unwrap(), "NAME                NOTE");
        let narrow = table.render(Some(10), false);
        assert!(widest_line(&narrow) <= 10, "{narrow}");
        assert!(narrow.lines().nth(1).unwrap().contains('…'), "{narrow}");
    }

    #[test]
    fn truncation_never_splits_a_wide_character() {
        assert_eq!(truncate("日本語", 4), "日…");
        assert_eq!(truncate("日本語", 5), "日本…");
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 1), "…");
    }

    #[test]
    fn hostile_cells_are_escaped_and_stay_on_their_line() {
        let mut table = Table::new(["TITLE", "N"]);
        for hostile in [
            "\u{1b}]0;PWNED\u{7}",
            "\u{1b}]52;c;ZXZpbA==\u{7}",
            "\u{1b}[2J",
            "\u{202e}gpj.exe",
            "nul\u{0}",
            "ok\rFAKE",
            "two\nlines",
        ] {
            table.row([hostile, "1"]);
        }
        let text = table.render(Some(80), false);
        assert_eq!(text.lines().count(), 8, "{text}");
        assert!(
            !text
                .chars()
                .any(|c| c != '\n' && super::super::is_hostile(c)),
            "{text:?}"
        );
        assert!(text.contains("\\x1b]0;PWNED\\x07"), "{text}");
        assert!(text.contains("ok\\rFAKE"), "{text}");
    }

    #[test]
    fn the_header_is_bold_only_when_asked() {
        let mut table = Table::new(["A"]);
        table.row(["x"]);
        assert_eq!(table.render(None, true), "\u{1b}[1mA\u{1b}[0m\nx\n");
        assert!(!table.render(None, false).contains('\u{1b}'));
    }

    #[test]
    fn right_aligned_numbers_line_up() {
        let mut table = Table::new(["NAME", "SIZE"]).align(1, Align::Right);
        table.row(["a", "5"]);
        table.row(["b", "1234"]);
        assert_eq!(
            table.render(None, false),
            "NAME  SIZE\na        5\nb     1234\n"
        );
    }
}
