//! The experiments' figures, drawn from their CSV files in one folder: the seed 000 grid
//! as the paper draws its figures 3-6 (for each game, M-MCTS's score against the budget
//! per move, one line per variant, sigma and opponent), seed 001's wall time against
//! the number of root-parallel workers, and each bot's Elo log against the time per move.

use crate::elo_log::{self, Mode, Run};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A figure's lines: label to (x, y) points.
type Lines = BTreeMap<String, Vec<(f64, f64)>>;

/// The data lines of a CSV text whose first line must be `header`, each with its line
/// number; blank lines skipped.
pub(crate) fn data_lines<'a>(text: &'a str, header: &str) -> Result<Vec<(usize, &'a str)>, String> {
    let mut lines = text.lines();
    let first = lines.next().ok_or("empty CSV")?;
    if first != header {
        return Err(format!("unexpected CSV header: {first}"));
    }
    Ok(lines.enumerate().map(|(i, l)| (i + 2, l)).filter(|(_, l)| !l.trim().is_empty()).collect())
}

/// A CSV file's text, or what kept it from being read.
fn read(csv: &Path) -> Result<String, String> {
    std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))
}

/// The header of `parallel.csv` (`experiments parallel --csv`).
pub const PARALLEL_CSV_HEADER: &str = "game,workers,iterations,seconds";

/// One CSV line of `experiments mmcts-paper`.
struct Row {
    game: String,
    /// Variant, sigma and opponent, as the line's label.
    label: String,
    iterations: u64,
    score: f64,
}

fn parse(csv: &str) -> Result<Vec<Row>, String> {
    data_lines(csv, crate::paper_games::mmcts_grid::CSV_HEADER)?
        .into_iter()
        .map(|(n, l)| {
            let f: Vec<&str> = l.split(',').collect();
            let bad = || format!("line {n}: {l}");
            if f.len() != 10 {
                return Err(bad());
            }
            Ok(Row {
                game: f[0].to_string(),
                label: format!("{} sigma {} vs {}", f[1], f[2], f[3]),
                iterations: f[4].parse().map_err(|_| bad())?,
                score: f[9].parse().map_err(|_| bad())?,
            })
        })
        .collect()
}

/// Draws `lines` into an SVG at `path`, with a grey reference line at `reference` across
/// the x range.
fn plot(
    path: &Path,
    title: &str,
    axes: (&str, &str),
    y_range: std::ops::Range<f64>,
    lines: &Lines,
    reference: &[(f64, f64)],
) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let max_x = lines.values().flatten().map(|p| p.0).fold(1.0, f64::max);
    let root = SVGBackend::new(path, (720, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..max_x * 1.1, y_range)
        .map_err(|e| err(&e))?;
    chart.configure_mesh().x_desc(axes.0).y_desc(axes.1).draw().map_err(|e| err(&e))?;
    chart.draw_series(LineSeries::new(reference.iter().copied(), BLACK.mix(0.3))).map_err(|e| err(&e))?;
    for (i, (label, points)) in lines.iter().enumerate() {
        let mut points = points.clone();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2)));
        chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Writes `DIR/mmcts_GAME.svg` for each game in the seed 000 grid's CSV; returns the files
/// written.
pub fn draw_mmcts(csv: &Path, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let rows = parse(&read(csv)?).map_err(|e| format!("{}: {e}", csv.display()))?;
    let mut games: BTreeMap<&str, Lines> = BTreeMap::new();
    for r in &rows {
        games.entry(&r.game).or_default().entry(r.label.clone()).or_default().push((r.iterations as f64, r.score));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (game, lines) in &games {
        let path = dir.join(format!("mmcts_{game}.svg"));
        let max_x = lines.values().flatten().map(|p| p.0).fold(1.0, f64::max);
        let title = format!("Seed 000, {game}: M-MCTS score against the budget");
        let axes = ("playouts per move (each side)", "M-MCTS score");
        plot(&path, &title, axes, 0.0..1.0, lines, &[(0.0, 0.5), (max_x * 1.1, 0.5)])?;
        written.push(path);
    }
    Ok(written)
}

/// Writes `DIR/parallel_wall_time.svg` from seed 001's CSV (`experiments parallel --csv`):
/// each game's wall time against the number of workers, as a share of one worker's, the
/// ideal 1/N in grey.
pub fn draw_parallel(csv: &Path, dir: &Path) -> Result<PathBuf, String> {
    let text = read(csv)?;
    let mut lines = Lines::new();
    let mut one: BTreeMap<String, f64> = BTreeMap::new();
    for (n, l) in data_lines(&text, PARALLEL_CSV_HEADER).map_err(|e| format!("{}: {e}", csv.display()))? {
        let f: Vec<&str> = l.split(',').collect();
        let bad = || format!("{}: line {n}: {l}", csv.display());
        let (game, workers, seconds) = match f[..] {
            [g, w, _, s] => (g.to_string(), w.parse::<f64>().map_err(|_| bad())?, s.parse::<f64>().map_err(|_| bad())?),
            _ => return Err(bad()),
        };
        let base = *one.entry(game.clone()).or_insert(seconds);
        lines.entry(game).or_default().push((workers, seconds / base));
    }
    let max_workers = lines.values().flatten().map(|p| p.0).fold(1.0, f64::max);
    let ideal: Vec<(f64, f64)> = (1..=max_workers as u32).map(|n| (f64::from(n), 1.0 / f64::from(n))).collect();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("parallel_wall_time.svg");
    let title = "Seed 001: wall time at equal total iterations (ideal 1/N in grey)";
    plot(&path, title, ("root-parallel workers", "wall time / one worker's"), 0.0..1.2, &lines, &ideal)?;
    Ok(path)
}

/// Writes `DIR/parallel_match.svg` from seed 001's match CSV (`experiments
/// parallel-match`): two workers' score against one search, by the single search's
/// iterations as a multiple of one worker's, one line per game and worker budget.
pub fn draw_parallel_match(csv: &Path, dir: &Path) -> Result<PathBuf, String> {
    let text = read(csv)?;
    let mut series = Lines::new();
    for (n, l) in data_lines(&text, crate::parallel::CSV_HEADER).map_err(|e| format!("{}: {e}", csv.display()))? {
        let bad = || format!("{}: line {n}: {l}", csv.display());
        let f: Vec<&str> = l.split(',').collect();
        let [game, per_worker, serial, _, _, _, _, score, ..] = f[..] else { return Err(bad()) };
        let number = |s: &str| s.parse::<f64>().map_err(|_| bad());
        let label = format!("{game}, {per_worker} iterations per worker");
        series.entry(label).or_default().push((number(serial)? / number(per_worker)?, number(score)?));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = dir.join("parallel_match.svg");
    let title = "Seed 001: 2 workers x N iterations against one search of r x N";
    let axes = ("r: the single search's iterations / one worker's", "2 workers' score");
    let max_x = series.values().flatten().map(|p| p.0).fold(1.0, f64::max);
    plot(&path, title, axes, 0.0..1.0, &series, &[(0.0, 0.5), (max_x * 1.1, 0.5)])?;
    Ok(path)
}

/// The sparring partners: the shipped bot's runs against one of them (the log's opponent
/// column) make that engine's history figure.
const EXTERNAL_ENGINES: [&str; 3] = ["Zataxx", "HaHaNoGo", "Dabble"];

/// Most series a figure draws: more cannot be told apart.
const MAX_SERIES: usize = 8;

/// Each game's Elo log as figures that answer one question each, legends beside the plot:
/// `elo_GAME.svg`, the series measured at several times per move, Elo against the time;
/// `elo_GAME_features.svg`, every match measured at one time (a feature against the bot
/// without it, mostly), one row each; `elo_GAME_vs_ENGINE.svg`, every match of the shipped
/// bot against a sparring partner in the order measured, a line per time per move and mode.
/// ±1200: no game lost or won.
pub fn draw_elo(csv: &Path, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let rows = elo_log::parse(&read(csv)?).map_err(|e| format!("{}: {e}", csv.display()))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let games: Vec<&str> = rows.iter().fold(Vec::new(), |mut games, r| {
        if !games.contains(&r.game.as_str()) {
            games.push(&r.game);
        }
        games
    });
    let mut written = Vec::new();
    for game in games {
        let of_game: Vec<&Run> = rows.iter().filter(|r| r.game == game).collect();
        let engine_of = |r: &Run| {
            r.standing.as_ref().and_then(|(opponent, _)| EXTERNAL_ENGINES.into_iter().find(|e| opponent.starts_with(e)))
        };
        let mut by_series: BTreeMap<&str, Vec<&Run>> = BTreeMap::new();
        for r in of_game.iter().filter(|r| engine_of(r).is_none()) {
            by_series.entry(&r.series).or_default().push(r);
        }
        let (by_time, single): (BTreeMap<_, _>, BTreeMap<_, _>) = by_series.into_iter().partition(|(_, p)| p.len() > 1);
        if !by_time.is_empty() {
            let path = dir.join(format!("elo_{game}.svg"));
            draw_elo_by_time(&path, game, &by_time)?;
            written.push(path);
        }
        let features: Vec<&Run> = of_game
            .iter()
            .copied()
            .filter(|r| engine_of(r).is_none() && single.contains_key(r.series.as_str()))
            .collect();
        if !features.is_empty() {
            let path = dir.join(format!("elo_{game}_features.svg"));
            draw_elo_features(&path, game, &features)?;
            written.push(path);
        }
        for engine in EXTERNAL_ENGINES {
            let history: Vec<&Run> = of_game.iter().copied().filter(|r| engine_of(r) == Some(engine)).collect();
            if !history.is_empty() {
                let path = dir.join(format!("elo_{game}_vs_{}.svg", engine.to_lowercase()));
                draw_elo_history(&path, game, engine, &history)?;
                written.push(path);
            }
        }
    }
    Ok(written)
}

fn svg_error(path: &Path) -> impl Fn(&dyn std::fmt::Display) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// A legend in its own area beside the plot: one short line and label per series.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    items: &[(String, RGBAColor)],
) -> Result<(), String> {
    for (i, (label, color)) in items.iter().enumerate() {
        let y = 40 + 22 * i as i32;
        let line = PathElement::new([(4, y), (24, y)], color.stroke_width(3));
        area.draw(&line).map_err(|e| format!("{e:?}"))?;
        area.draw(&Text::new(label.clone(), (30, y - 7), ("sans-serif", 13))).map_err(|e| format!("{e:?}"))?;
    }
    Ok(())
}

fn draw_elo_by_time(path: &Path, game: &str, series: &BTreeMap<&str, Vec<&Run>>) -> Result<(), String> {
    let err = svg_error(path);
    if series.len() > MAX_SERIES {
        return Err(err(&format!("{} series: at most {MAX_SERIES} fit one figure", series.len())));
    }
    let root = SVGBackend::new(path, (1000, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plot, legend) = root.split_horizontally(600);
    let mut chart = ChartBuilder::on(&plot)
        .caption(format!("{game}: Elo of A against B by time per move"), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d((60.0..1600.0).log_scale(), -1250.0..1250.0)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(8)
        .x_label_formatter(&|ms| format!("{ms:.0}"))
        .y_label_formatter(&|elo| format!("{elo:+.0}"))
        .x_desc("time per move (ms, log scale)")
        .y_desc("Elo (A vs B), 95% interval")
        .draw()
        .map_err(|e| err(&e))?;
    chart.draw_series(LineSeries::new([(60.0, 0.0), (1600.0, 0.0)], BLACK.mix(0.3))).map_err(|e| err(&e))?;
    let mut items = Vec::new();
    for (i, (label, points)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        // Series measured at the same times would hide each other's bars: each is nudged
        // sideways by a few percent of the time.
        let nudge = 1.0 + 0.025 * (i as f64 - series.len() as f64 / 2.0);
        let mut line: Vec<(f64, f64)> = points.iter().map(|p| (p.time_ms * nudge, p.elo)).collect();
        line.sort_by(|a, b| a.0.total_cmp(&b.0));
        chart.draw_series(LineSeries::new(line, color.stroke_width(2))).map_err(|e| err(&e))?;
        let bars = points.iter().map(|p| ErrorBar::new_vertical(p.time_ms * nudge, p.low, p.elo, p.high, color, 6));
        chart.draw_series(bars).map_err(|e| err(&e))?;
        let dots = points.iter().map(|p| Circle::new((p.time_ms * nudge, p.elo), 3, color.filled()));
        chart.draw_series(dots).map_err(|e| err(&e))?;
        items.push((label.to_string(), color));
    }
    draw_legend(&legend, &items).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// One row per match, its Elo and interval as a horizontal bar: no legend needed.
fn draw_elo_features(path: &Path, game: &str, rows: &[&Run]) -> Result<(), String> {
    let err = svg_error(path);
    let n = rows.len() as i32;
    let root = SVGBackend::new(path, (1000, 90 + 22 * rows.len() as u32)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    // The rows' own span (features are worth tens of Elo, not a thousand), zero included.
    let low = rows.iter().map(|r| r.low).fold(0.0, f64::min);
    let high = rows.iter().map(|r| r.high).fold(0.0, f64::max);
    let x_range = (low - 25.0).max(-1250.0)..(high + 25.0).min(1250.0);
    let labels: Vec<String> = rows.iter().map(|r| format!("{} ({} ms)", r.series, r.time_ms)).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("{game}: matches measured at one time per move (Elo of A vs B, 95%)"), ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(480)
        .build_cartesian_2d(x_range, -1..n)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .y_labels(rows.len() + 2)
        // Row 0 at the top: the first match measured.
        .y_label_formatter(&|&y| if (0..n).contains(&y) { labels[(n - 1 - y) as usize].clone() } else { String::new() })
        .x_label_formatter(&|elo| format!("{elo:+.0}"))
        .x_desc("Elo (A vs B)")
        .draw()
        .map_err(|e| err(&e))?;
    chart.draw_series(LineSeries::new([(0.0, -1), (0.0, n)], BLACK.mix(0.3))).map_err(|e| err(&e))?;
    let color = BLUE.to_rgba();
    for (i, r) in rows.iter().enumerate() {
        let y = n - 1 - i as i32;
        chart.draw_series([ErrorBar::new_horizontal(y, r.low, r.elo, r.high, color, 6)]).map_err(|e| err(&e))?;
        chart.draw_series([Circle::new((r.elo, y), 3, color.filled())]).map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

/// Every match of the shipped bot against one sparring partner in the order measured, a
/// line per time and mode; the x axis names each match by the date and commit it was
/// recorded at.
fn draw_elo_history(path: &Path, game: &str, engine: &str, rows: &[&Run]) -> Result<(), String> {
    let err = svg_error(path);
    let root = SVGBackend::new(path, (1000, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plot, legend) = root.split_horizontally(800);
    let n = rows.len() as f64;
    // Match k (1-based) at x = k: a tick names the match it stands on.
    let when = |x: &f64| {
        let k = x.round();
        let row = (k - x).abs() < 1e-9 && k >= 1.0 && k <= n;
        if row {
            format!("{} {}", &rows[k as usize - 1].date[5..], rows[k as usize - 1].commit)
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(&plot)
        .caption(format!("{game} against {engine}: every match in the order measured"), ("sans-serif", 18))
        .margin(12)
        .margin_right(40)
        .x_label_area_size(60)
        .y_label_area_size(50)
        .build_cartesian_2d(0.0..n + 1.0, -1250.0..1250.0)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_labels(8)
        .x_label_formatter(&when)
        .y_label_formatter(&|elo| format!("{elo:+.0}"))
        .x_desc("match, oldest first: month-day and commit recorded at (docs/figures/elo_log.csv)")
        .y_desc("Elo (ours vs engine), 95% interval")
        .draw()
        .map_err(|e| err(&e))?;
    chart.draw_series(LineSeries::new([(0.0, 0.0), (n + 1.0, 0.0)], BLACK.mix(0.3))).map_err(|e| err(&e))?;
    // A line per time and mode: kept running and afresh are told apart.
    let mode_of = |r: &Run| r.standing.as_ref().map(|s| s.1);
    let mut lines: Vec<(f64, Option<Mode>)> = rows.iter().map(|r| (r.time_ms, mode_of(r))).collect();
    lines.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    lines.dedup();
    let mut items = Vec::new();
    for (i, &(time, mode)) in lines.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let points: Vec<(f64, &Run)> = (rows.iter().enumerate())
            .filter(|(_, r)| r.time_ms == time && mode_of(r) == mode)
            .map(|(k, r)| (k as f64 + 1.0, *r))
            .collect();
        let line: Vec<(f64, f64)> = points.iter().map(|&(x, p)| (x, p.elo)).collect();
        chart.draw_series(LineSeries::new(line, color.stroke_width(1))).map_err(|e| err(&e))?;
        let bars = points.iter().map(|&(x, p)| ErrorBar::new_vertical(x, p.low, p.elo, p.high, color, 6));
        chart.draw_series(bars).map_err(|e| err(&e))?;
        chart
            .draw_series(points.iter().map(|&(x, p)| Circle::new((x, p.elo), 3, color.filled())))
            .map_err(|e| err(&e))?;
        let mode = mode.map_or("", Mode::words);
        items.push((format!("{time} ms per move, {mode}"), color));
    }
    draw_legend(&legend, &items).map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Every figure whose CSV is in `dir` (`mmcts_paper.csv`, `parallel.csv`,
/// `parallel_match.csv`, `elo_log.csv`), drawn into `dir`; returns the files written.
pub fn draw_all(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    let mmcts = dir.join("mmcts_paper.csv");
    if mmcts.exists() {
        written.extend(draw_mmcts(&mmcts, dir)?);
    }
    let parallel = dir.join("parallel.csv");
    if parallel.exists() {
        written.push(draw_parallel(&parallel, dir)?);
    }
    let parallel_match = dir.join("parallel_match.csv");
    if parallel_match.exists() {
        written.push(draw_parallel_match(&parallel_match, dir)?);
    }
    let elo = dir.join("elo_log.csv");
    if elo.exists() {
        written.extend(draw_elo(&elo, dir)?);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_each_figure_from_its_csv_and_rejects_a_wrong_header() {
        let dir = std::env::temp_dir().join(format!("mmcts_figures_{}", std::process::id()));
        let csv = dir.join("grid.csv");
        std::fs::create_dir_all(&dir).unwrap();
        let body = "ttt5,AsRun,0.5,FlatMc,1000,10,5,2,3,0.6000\nttt5,AsRun,0.5,FlatMc,2000,10,6,0,4,0.6000\n\
                    connect4,Knn,0.8,Uct,1000,10,1,0,9,0.1000\n";
        std::fs::write(&csv, format!("{}\n{body}", crate::paper_games::mmcts_grid::CSV_HEADER)).unwrap();
        let files = draw_mmcts(&csv, &dir).unwrap();
        assert_eq!(files.len(), 2);
        let svg = std::fs::read_to_string(dir.join("mmcts_ttt5.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("AsRun sigma 0.5 vs FlatMc"), "{svg:.200}");
        std::fs::write(&csv, format!("game,x\n{body}")).unwrap();
        assert!(draw_mmcts(&csv, &dir).is_err());
        std::fs::write(dir.join("parallel.csv"), format!("{PARALLEL_CSV_HEADER}\nnogo,1,100,2.0\nnogo,2,100,1.2\n"))
            .unwrap();
        std::fs::remove_file(&csv).unwrap();
        let all = draw_all(&dir).unwrap();
        assert_eq!(all, vec![dir.join("parallel_wall_time.svg")]);
        let svg = std::fs::read_to_string(&all[0]).unwrap();
        assert!(svg.contains("nogo"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_elo_log_draws_a_figure_per_question() {
        let text = format!(
            "{}\nnogo,A vs B,,,100,30,0,10,,,,2026-11-27,a421f27,\n\
             nogo,A vs B,,,1000,4,0,16,-241,-1200,-70,2026-11-28,5f76e47,\n",
            elo_log::HEADER
        );
        let dir = std::env::temp_dir().join(format!("elo_figures_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("elo_log.csv"), &text).unwrap();
        let matches = format!("{}\ndots,100,150,10,4,0,6,0.4000,-70,-300,150\n", crate::parallel::CSV_HEADER);
        std::fs::write(dir.join("parallel_match.csv"), matches).unwrap();
        let files = draw_all(&dir).unwrap();
        assert_eq!(files, vec![dir.join("parallel_match.svg"), dir.join("elo_nogo.svg")]);
        assert!(std::fs::read_to_string(&files[0]).unwrap().contains("dots, 100 iterations per worker"));
        assert!(std::fs::read_to_string(&files[1]).unwrap().contains("A vs B"));
        // A match at one time goes to the features figure, the shipped bot against a
        // sparring partner to that engine's history, a line per time and mode.
        let more = format!(
            "{text}nogo,feature vs without,,,100,12,0,8,,,,2026-11-28,5f76e47,\n\
             nogo,A,HaHaNoGo,kept,1000,6,0,4,,,,2026-11-28,5f76e47,\n\
             nogo,A,HaHaNoGo at 1700 ms,afresh,1000,5,0,5,,,,2026-11-29,5f76e47,\n"
        );
        std::fs::write(dir.join("elo_log.csv"), more).unwrap();
        let files = draw_elo(&dir.join("elo_log.csv"), &dir).unwrap();
        let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into()).collect();
        assert_eq!(names, ["elo_nogo.svg", "elo_nogo_features.svg", "elo_nogo_vs_hahanogo.svg"]);
        assert!(std::fs::read_to_string(&files[1]).unwrap().contains("feature vs without (100 ms)"));
        let history = std::fs::read_to_string(&files[2]).unwrap();
        assert!(history.contains("1000 ms per move, kept running") && history.contains("11-28 5f76e47"), "{history}");
        assert!(history.contains("1000 ms per move, afresh") && history.contains("11-29 5f76e47"), "{history}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The figures in the repository are the ones its CSV files draw: a row that does not
    /// parse (a commit that is not hex, say) or a CSV edited without `experiments figures`
    /// fails here, not in the next session's redraw.
    #[test]
    fn the_committed_figures_are_drawn_from_the_committed_csv_files() {
        let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/figures");
        let dir = std::env::temp_dir().join(format!("committed_figures_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&committed).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "csv") {
                std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
            }
        }
        let drawn = draw_all(&dir).unwrap();
        assert!(!drawn.is_empty());
        for file in drawn {
            let name = file.file_name().unwrap();
            let fresh = std::fs::read_to_string(&file).unwrap();
            let kept = std::fs::read_to_string(committed.join(name)).unwrap_or_default();
            assert!(
                fresh == kept,
                "docs/figures/{} is not what its CSV draws: run `experiments figures`",
                name.to_string_lossy()
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
