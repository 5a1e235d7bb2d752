//! Records as text, one per line, to compare the network with other evaluations (an
//! external engine's, a search's): `FEN<TAB>network<TAB>search score<TAB>result`, all from
//! the side to move's view, which the FEN writes as `x` to move.

use crate::record::{read_file, Record};
use botzone_games::ataxx::net::{embedded, Network};
use botzone_games::ataxx::notation::fen;
use botzone_games::ataxx::Position;
use botzone_games::game::Player;
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct DumpConfig {
    pub data: PathBuf,
    /// The network to evaluate with (default: the shipped one).
    pub net: Option<PathBuf>,
    /// Every `every`-th record, from the first.
    pub every: usize,
    pub limit: usize,
}

pub fn dump(config: &DumpConfig) -> Result<(), String> {
    let from_file = config.net.as_deref().map(crate::read_network).transpose()?;
    let net = from_file.as_ref().unwrap_or_else(|| embedded());
    let (records, _) = read_file(Path::new(&config.data))?;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    for r in records.iter().step_by(config.every.max(1)).take(config.limit) {
        writeln!(out, "{}", line(net, r)).map_err(|e| format!("stdout: {e}"))?;
    }
    out.flush().map_err(|e| format!("stdout: {e}"))
}

/// One record as text: the side to move is written as `x` (the first player).
fn line(net: &Network, r: &Record) -> String {
    let position = Position::from_parts(r.own, r.opp, Player::First, 0);
    format!("{}\t{}\t{}\t{}", fen(&position), net.evaluate(r.own, r.opp), r.score, r.result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use botzone_games::ataxx::notation::parse_fen;
    use botzone_games::ataxx::Bitboard;

    #[test]
    fn a_line_gives_the_side_to_move_as_x_and_the_network_value() {
        let r =
            Record { own: Bitboard(0b1011 << 9), opp: Bitboard(1 << 48 | 1 << 20), score: -57, result: 1, flags: 0 };
        let text = line(embedded(), &r);
        let fields: Vec<&str> = text.split('\t').collect();
        let p = parse_fen(fields[0]).unwrap();
        assert_eq!((p.pieces(Player::First), p.pieces(Player::Second)), (r.own, r.opp));
        assert_eq!(botzone_games::game::Game::to_move(&p), Player::First);
        assert_eq!(fields[1], embedded().evaluate(r.own, r.opp).to_string());
        assert_eq!(&fields[2..], ["-57", "1"]);
    }
}
