//! Time safety: does a bot ever answer over Botzone's limit when each answer is a fresh
//! process (spawn to exit timed, as Botzone counts it)?

use arena::games::ArenaGame;
use arena::judge::input_with_limit;
use botzone_games::botzone::Transcript;
use std::time::{Duration, Instant};

/// Inputs for `answers` turns: positions of seeded random games where the asked side must
/// move, each at least its second turn (Botzone doubles the first turn's limit).
fn overrun_inputs<G: ArenaGame>(answers: usize, limit: Duration, seed: u64) -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut inputs = Vec::with_capacity(answers);
    let mut moves = Vec::new();
    while inputs.len() < answers {
        let mut t = Transcript::<G>::new();
        while t.game().outcome().is_none() && inputs.len() < answers {
            if t.must_pass() {
                t.answer(None).expect("a pass is due");
                continue;
            }
            if t.answers(t.asked()) > 0 && rng.u8(..4) == 0 {
                inputs.push(input_with_limit(&t, limit));
            }
            t.game().legal_moves(&mut moves);
            t.answer(Some(moves[rng.usize(..moves.len())])).expect("legal");
        }
    }
    inputs
}

/// `experiments overrun`: the whole-process wall time of `bot` on `answers` inputs (spawn,
/// input, answer, exit); prints the mean, percentiles, maximum and the count over the limit.
pub fn overrun<G: ArenaGame>(bot: &str, answers: usize, time_ms: u64, seed: u64) -> Result<(), String> {
    let argv = shlex::split(bot).filter(|a| !a.is_empty()).ok_or("cannot split the bot's command")?;
    let limit = Duration::from_millis(time_ms);
    let inputs = overrun_inputs::<G>(answers, limit, seed);
    let bar = indicatif::ProgressBar::new(inputs.len() as u64);
    let mut times = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let start = Instant::now();
        let mut child = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {:?}: {e}", argv[0]))?;
        let mut stdin = child.stdin.take().expect("piped");
        std::io::Write::write_all(&mut stdin, format!("{input}\n").as_bytes()).map_err(|e| e.to_string())?;
        drop(stdin);
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        times.push(start.elapsed());
        if !out.status.success() {
            return Err(format!("the bot failed ({}) on {input}", out.status));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let pct = |p: f64| ms(times[((times.len() - 1) as f64 * p) as usize]);
    let over = times.iter().filter(|&&t| t > limit).count();
    println!(
        "{} answers of {} at {time_ms} ms (spawn to exit): mean {:.1} ms, p50 {:.1}, p99 {:.1}, \
         p99.9 {:.1}, max {:.1}; over the limit: {over}",
        times.len(),
        G::NAME,
        times.iter().map(|&t| ms(t)).sum::<f64>() / times.len() as f64,
        pct(0.5),
        pct(0.99),
        pct(0.999),
        ms(*times.last().expect("answers"))
    );
    Ok(())
}
