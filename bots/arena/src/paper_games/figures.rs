//! The seed 000 grid's figures, drawn from its CSV as the paper draws its figures 3-6: for
//! each game, M-MCTS's win rate against the budget per move, one line per variant, sigma
//! and opponent.

use plotters::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A figure's lines: label to (playouts per move, score) points.
type Lines<'a> = BTreeMap<&'a str, Vec<(u64, f64)>>;

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

/// Writes `DIR/mmcts_GAME.svg` for each game in the CSV; returns the files written.
pub fn draw(csv: &Path, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let text = std::fs::read_to_string(csv).map_err(|e| format!("{}: {e}", csv.display()))?;
    let rows = parse(&text)?;
    let mut games: BTreeMap<&str, Lines> = BTreeMap::new();
    for r in &rows {
        games.entry(&r.game).or_default().entry(&r.label).or_default().push((r.iterations, r.score));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (game, lines) in &games {
        let path = dir.join(format!("mmcts_{game}.svg"));
        let max_x = lines.values().flatten().map(|p| p.0).max().unwrap_or(1);
        let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
        let root = SVGBackend::new(&path, (720, 440)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Seed 000, {game}: M-MCTS win rate against the budget"), ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0u64..max_x + max_x / 10, 0.0f64..1.0)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("playouts per move (each side)")
            .y_desc("M-MCTS score")
            .draw()
            .map_err(|e| err(&e))?;
        chart
            .draw_series(LineSeries::new([(0, 0.5), (max_x + max_x / 10, 0.5)], BLACK.mix(0.3)))
            .map_err(|e| err(&e))?;
        for (i, (label, points)) in lines.iter().enumerate() {
            let mut points = points.clone();
            points.sort_by_key(|p| p.0);
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(*label)
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
        root.present().map_err(|e| err(&e))?;
        drop(chart);
        drop(root);
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_figure_per_game_and_rejects_a_wrong_header() {
        let dir = std::env::temp_dir().join(format!("mmcts_figures_{}", std::process::id()));
        let csv = dir.join("grid.csv");
        std::fs::create_dir_all(&dir).unwrap();
        let body = "ttt5,AsRun,0.5,FlatMc,1000,10,5,2,3,0.6000\nttt5,AsRun,0.5,FlatMc,2000,10,6,0,4,0.6000\n\
                    connect4,Knn,0.8,Uct,1000,10,1,0,9,0.1000\n";
        std::fs::write(&csv, format!("{}\n{body}", super::super::mmcts_grid::CSV_HEADER)).unwrap();
        let files = draw(&csv, &dir).unwrap();
        assert_eq!(files.len(), 2);
        let svg = std::fs::read_to_string(dir.join("mmcts_ttt5.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("AsRun sigma 0.5 vs FlatMc"), "{svg:.200}");
        std::fs::write(&csv, format!("game,x\n{body}")).unwrap();
        assert!(draw(&csv, &dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
