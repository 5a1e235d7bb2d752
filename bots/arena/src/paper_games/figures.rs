//! The experiments' figures, drawn from their CSV files in one folder: the seed 000 grid
//! as the paper draws its figures 3-6 (for each game, M-MCTS's score against the budget
//! per move, one line per variant, sigma and opponent), and seed 001's wall time against
//! the number of root-parallel workers.

use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A figure's lines: label to (x, y) points.
type Lines = BTreeMap<String, Vec<(f64, f64)>>;

/// One CSV line of `experiments mmcts-paper`.
struct Row {
    game: String,
    /// Variant, sigma and opponent, as the line's label.
    label: String,
    iterations: u64,
    score: f64,
}

fn parse(csv: &str) -> Result<Vec<Row>, String> {
    let mut lines = csv.lines();
    let header = lines.next().ok_or("empty CSV")?;
    if header != super::mmcts_grid::CSV_HEADER {
        return Err(format!("unexpected CSV header: {header}"));
    }
    lines
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            let bad = || format!("line {}: {l}", i + 2);
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
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
    let rows = parse(&text)?;
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
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
    let mut lines = Lines::new();
    let mut one: BTreeMap<String, f64> = BTreeMap::new();
    for (i, l) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
        let f: Vec<&str> = l.split(',').collect();
        let bad = || format!("{}: line {}: {l}", csv.display(), i + 1);
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

/// Every figure whose CSV is in `dir` (`mmcts_paper.csv`, `parallel.csv`), drawn into
/// `dir`; returns the files written.
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
        std::fs::write(&csv, format!("{}\n{body}", super::super::mmcts_grid::CSV_HEADER)).unwrap();
        let files = draw_mmcts(&csv, &dir).unwrap();
        assert_eq!(files.len(), 2);
        let svg = std::fs::read_to_string(dir.join("mmcts_ttt5.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("AsRun sigma 0.5 vs FlatMc"), "{svg:.200}");
        std::fs::write(&csv, format!("game,x\n{body}")).unwrap();
        assert!(draw_mmcts(&csv, &dir).is_err());
        std::fs::write(dir.join("parallel.csv"), "game,workers,iterations,seconds\nnogo,1,100,2.0\nnogo,2,100,1.2\n")
            .unwrap();
        std::fs::remove_file(&csv).unwrap();
        let all = draw_all(&dir).unwrap();
        assert_eq!(all, vec![dir.join("parallel_wall_time.svg")]);
        let svg = std::fs::read_to_string(&all[0]).unwrap();
        assert!(svg.contains("nogo"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
