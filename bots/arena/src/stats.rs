//! Match statistics as engine testers compute them: Elo from the score with a 95%
//! interval, likelihood of superiority, and a sequential probability ratio test.

/// The Elo difference that gives `score` (0..1) in expectation. Scores of exactly 0 or 1
/// are clamped to 0.001 and 0.999 (about ±1200 Elo) so the figure stays finite.
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Results of A against B.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// A's score in each finished pair of games (same opening, colours swapped), 0..=2.
    pub pair_scores: Vec<f64>,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
    }

    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// The variance of one game's score. With paired openings the pairs are the
    /// independent units (pentanomial model), which removes the opening's own variance.
    /// One virtual win and one virtual loss (one pair of each extreme) are added so that
    /// a one-sided record (all wins) does not claim zero variance.
    fn per_game_variance(&self) -> f64 {
        if self.pair_scores.len() >= 2 && self.pair_scores.len() * 2 == self.games() as usize {
            let scores: Vec<f64> = self.pair_scores.iter().copied().chain([0.0, 2.0]).collect();
            let m = scores.len() as f64;
            let mean = scores.iter().sum::<f64>() / m;
            let var_pair = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / m;
            // A pair is two games: the variance of a pair's mean is var_pair / 4, which is
            // the variance of two independent games of per-game variance var_pair / 2.
            return var_pair / 2.0;
        }
        let (w, d, l) = (f64::from(self.wins) + 1.0, f64::from(self.draws), f64::from(self.losses) + 1.0);
        let n = w + d + l;
        let s = (w + 0.5 * d) / n;
        (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n
    }

    /// The 95% confidence interval of the Elo difference.
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let sd = (self.per_game_variance() / n).sqrt();
        let s = self.score();
        (elo_from_score(s - 1.96 * sd), elo_from_score(s + 1.96 * sd))
    }

    /// Likelihood of superiority: the probability that A is stronger, from wins and losses.
    pub fn los(&self) -> f64 {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0), in the normal
    /// approximation used by engine-testing frameworks.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = f64::from(self.games());
        let var = self.per_game_variance();
        if n == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// An SPRT with error rates alpha = beta = 0.05.
#[derive(Debug, Clone, Copy)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SprtDecision {
    H0,
    H1,
    Continue,
}

impl Sprt {
    pub const ALPHA: f64 = 0.05;
    pub const BETA: f64 = 0.05;

    pub fn bounds() -> (f64, f64) {
        ((Self::BETA / (1.0 - Self::ALPHA)).ln(), ((1.0 - Self::BETA) / Self::ALPHA).ln())
    }

    pub fn decide(&self, tally: &Tally) -> SprtDecision {
        let llr = tally.llr(self.elo0, self.elo1);
        let (lower, upper) = Self::bounds();
        if llr >= upper {
            SprtDecision::H1
        } else if llr <= lower {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

/// The error function (Abramowitz & Stegun 7.1.26, error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.3275911 * x.abs());
    let poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!(elo_from_score(0.5).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((score_from_elo(elo_from_score(0.3)) - 0.3).abs() < 1e-12);
        assert!(elo_from_score(1.0).is_finite());
    }

    #[test]
    fn interval_contains_the_estimate_and_shrinks_with_games() {
        let small = Tally { wins: 6, draws: 2, losses: 2, pair_scores: vec![] };
        let big = Tally { wins: 600, draws: 200, losses: 200, pair_scores: vec![] };
        let (lo, hi) = small.elo_interval();
        assert!(lo < small.elo() && small.elo() < hi);
        let (blo, bhi) = big.elo_interval();
        assert!(bhi - blo < (hi - lo) / 5.0);
        assert!(blo > 0.0, "1000 games at 70% exclude zero");
    }

    #[test]
    fn los_is_symmetric() {
        let t = Tally { wins: 10, draws: 0, losses: 10, pair_scores: vec![] };
        assert!((t.los() - 0.5).abs() < 1e-9);
        let t = Tally { wins: 30, draws: 0, losses: 10, pair_scores: vec![] };
        assert!(t.los() > 0.99);
        assert!((erf(0.5) - 0.5204999).abs() < 1e-6);
    }

    #[test]
    fn sprt_accepts_h1_for_a_clearly_stronger_bot_and_h0_for_equal() {
        let sprt = Sprt { elo0: 0.0, elo1: 20.0 };
        let strong = Tally { wins: 700, draws: 0, losses: 300, pair_scores: vec![] };
        assert_eq!(sprt.decide(&strong), SprtDecision::H1);
        let equal = Tally { wins: 2000, draws: 0, losses: 2000, pair_scores: vec![] };
        assert_eq!(sprt.decide(&equal), SprtDecision::H0);
        let early = Tally { wins: 3, draws: 0, losses: 2, pair_scores: vec![] };
        assert_eq!(sprt.decide(&early), SprtDecision::Continue);
    }
}
