//! Running a bot the way Botzone does: a fresh process per turn fed the full JSON history,
//! or (keep-running) one process that answers, prints the marker and waits for the next
//! request line. Each turn is timed on the wall clock from the moment the input is sent;
//! a bot far over its limit is killed.

use botzone_games::botzone::KEEP_RUNNING_MARKER;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why a turn lost the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// A move the rules reject (including a move when a pass is due, and the reverse).
    Illegal,
    /// Output that is not a Botzone answer.
    BadOutput,
    /// The process could not start, exited with an error or died of a signal.
    Crash,
    /// The answer came after the time limit.
    Timeout,
}

impl FaultKind {
    pub const ALL: [FaultKind; 4] = [FaultKind::Illegal, FaultKind::BadOutput, FaultKind::Crash, FaultKind::Timeout];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal",
            FaultKind::BadOutput => "bad-output",
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "timeout",
        }
    }

    /// The kind [`FaultKind::name`] names (as a log writes it).
    pub fn from_name(name: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

#[derive(Debug, Clone)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

pub fn fault(kind: FaultKind, detail: impl Into<String>) -> Fault {
    Fault { kind, detail: detail.into() }
}

/// How to start a bot.
#[derive(Debug, Clone)]
pub struct BotSpec {
    pub argv: Vec<String>,
    pub keep_running: bool,
    /// Run it as Botzone would (see [`Sandbox`]); `None`: as it is.
    pub sandbox: Option<Sandbox>,
}

/// Botzone's limits on a bot, as far as a judge can set them without privileges: an empty
/// environment (Botzone passes none), one CPU (`taskset`), and an address-space cap
/// (`prlimit --as`: the memory limit as a hard bound on all the bot may map). A bot that
/// maps more fails to allocate and crashes, which the judge counts as a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sandbox {
    pub cpu: usize,
    pub memory_mb: u64,
}

/// Botzone's memory limit per bot.
pub const BOTZONE_MEMORY_MB: u64 = 256;

impl Sandbox {
    /// The command that starts `argv` inside the sandbox (`taskset` and `prlimit` from
    /// util-linux, found on the judge's own PATH; each replaces itself with the next).
    fn command(&self, argv: &[String]) -> Command {
        let mut command = Command::new("taskset");
        command
            .args(["-c", &self.cpu.to_string(), "prlimit", &format!("--as={}", self.memory_mb << 20), "--"])
            .args(argv)
            .env_clear();
        command
    }
}

/// The CPUs this process may run on, in order (Linux's `Cpus_allowed_list`), so that a
/// judge started under `taskset -c 1` puts its sandboxed bots on CPU 1, not on CPU 0 beside
/// another judge's. Elsewhere, or unreadable: 0..available_parallelism.
pub fn allowed_cpus() -> Vec<usize> {
    let listed = std::fs::read_to_string("/proc/self/status").ok().and_then(|status| {
        let list = status.lines().find_map(|line| line.strip_prefix("Cpus_allowed_list:"))?;
        parse_cpu_list(list.trim())
    });
    listed
        .filter(|cpus| !cpus.is_empty())
        .unwrap_or_else(|| (0..std::thread::available_parallelism().map_or(1, |n| n.get())).collect())
}

/// CPU time the host has taken from this machine's CPUs so far, all CPUs together, in ms:
/// Linux's "steal" time (`/proc/stat`), which a virtual machine accrues while the
/// hypervisor runs something else on its CPUs. `None` where it cannot be read (not Linux).
///
/// It is why a judge reports it: on a virtual machine lent a little less than all of its
/// CPUs, two busy cores get one of them taken away for about 100 ms at a time (measured on
/// the development machine, 2026-12-01), enough for a bot that keeps a 50 ms margin to
/// answer late through no fault of its own.
pub fn stolen_ms() -> Option<u64> {
    parse_steal(&std::fs::read_to_string("/proc/stat").ok()?)
}

/// The machine that plays, as a log records it: the CPU's model and the instruction sets
/// that change an engine's speed (a network evaluated with AVX-512 or only AVX2), read once
/// from `/proc/cpuinfo`; "unknown" where it cannot be read. With the steal time it tells
/// one host's result from another's.
pub fn host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| std::fs::read_to_string("/proc/cpuinfo").map_or("unknown".into(), |text| describe_cpu(&text)))
}

/// The instruction sets named in [`host`]'s description, in this order.
const SPEED_FLAGS: [&str; 8] =
    ["avx2", "bmi2", "avx512f", "avx512bw", "avx512vl", "avx512_vnni", "avx_vnni", "avx512_bf16"];

/// `/proc/cpuinfo`'s first processor as "MODEL (FLAG FLAG ...)".
fn describe_cpu(cpuinfo: &str) -> String {
    let field = |name: &str| {
        cpuinfo.lines().find_map(|l| {
            let (key, value) = l.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_string())
        })
    };
    let model = field("model name").unwrap_or_else(|| "unknown CPU".into());
    let flags = field("flags").unwrap_or_default();
    let present: Vec<&str> = SPEED_FLAGS.into_iter().filter(|f| flags.split_whitespace().any(|g| g == *f)).collect();
    format!("{model} ({})", if present.is_empty() { "no AVX2".into() } else { present.join(" ") })
}

/// The steal time since an earlier reading of [`stolen_ms`].
pub fn stolen_since(start: Option<u64>) -> Option<u64> {
    start.zip(stolen_ms()).map(|(start, now)| now.saturating_sub(start))
}

/// The steal column of `/proc/stat`'s first line ("cpu user nice system idle iowait irq
/// softirq steal ..."), in ms: the kernel counts it in ticks of USER_HZ, which Linux fixes
/// at 100 a second for this file on every architecture it runs on.
fn parse_steal(stat: &str) -> Option<u64> {
    let line = stat.lines().next()?;
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let ticks: u64 = fields.nth(7)?.parse().ok()?;
    Some(ticks * 10)
}

/// "0-3,6,8-9" as [0, 1, 2, 3, 6, 8, 9]; `None` if any part is not a number or a range.
fn parse_cpu_list(list: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in list.split(',') {
        match part.split_once('-') {
            Some((low, high)) => cpus.extend(low.parse::<usize>().ok()?..=high.parse::<usize>().ok()?),
            None => cpus.push(part.parse().ok()?),
        }
    }
    Some(cpus)
}

impl BotSpec {
    /// Splits a shell-style command line (quotes allowed, no shell features).
    pub fn parse(command: &str, keep_running: bool) -> Result<BotSpec, String> {
        let argv = shlex::split(command).ok_or_else(|| format!("cannot split command {command:?}"))?;
        if argv.is_empty() {
            return Err("empty bot command".into());
        }
        Ok(BotSpec { argv, keep_running, sandbox: None })
    }

    fn spawn(&self) -> Result<Child, Fault> {
        match &self.sandbox {
            Some(sandbox) => start(sandbox.command(&self.argv), &self.argv),
            None => spawn(&self.argv),
        }
    }
}

fn spawn(argv: &[String]) -> Result<Child, Fault> {
    let mut command = Command::new(&argv[0]);
    command.args(&argv[1..]);
    start(command, argv)
}

fn start(mut command: Command, argv: &[String]) -> Result<Child, Fault> {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| fault(FaultKind::Crash, format!("cannot start {:?}: {e}", argv[0])))
}

/// Output larger than this is cut: no Botzone answer is that long.
const MAX_OUTPUT: u64 = 1 << 20;

/// How long past its limit a bot may run before it is killed.
pub fn kill_after(limit: Duration) -> Duration {
    limit + limit.max(Duration::from_millis(500))
}

/// The deadline passed before the process wrote a line.
#[derive(Debug)]
pub struct TimedOut;

/// A process kept running and spoken to in lines: a kept-running Botzone bot, or a UAI or
/// GTP engine. Its output lines arrive through a reader thread (`None` at its end).
pub struct LineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
}

impl LineProcess {
    pub fn start(argv: &[String]) -> Result<LineProcess, Fault> {
        Self::from_child(spawn(argv)?)
    }

    fn from_child(mut child: Child) -> Result<LineProcess, Fault> {
        let stdin = child.stdin.take().expect("piped");
        let _ = drain(child.stderr.take().expect("piped"));
        let stdout = child.stdout.take().expect("piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(Some(l)).is_err() {
                            return;
                        }
                    }
                    Err(_) => break,
                }
            }
            let _ = tx.send(None);
        });
        Ok(LineProcess { child, stdin, lines: rx })
    }

    /// Writes one line; an error means the process no longer reads.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()
    }

    /// The next output line by `deadline`: `Ok(None)` when the output ended, `Err` when
    /// the deadline passed first.
    pub fn next_line(&self, deadline: Instant) -> Result<Option<String>, TimedOut> {
        match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Disconnected) => Ok(None),
            Err(RecvTimeoutError::Timeout) => Err(TimedOut),
        }
    }

    /// The most memory the process has had resident so far (Linux's VmHWM), in KB;
    /// `None` where /proc cannot tell.
    pub fn peak_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// The exit status once the output has ended.
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        wait_briefly(&mut self.child)
    }

    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One side of one game.
pub struct Bot {
    spec: BotSpec,
    /// Whether a late bot may run on past its limit (the judge measures how late it was)
    /// or is killed at the limit (the connector must answer in time).
    grace: bool,
    kept: Option<LineProcess>,
    /// Kept-running processes started in this game: more than one means the bot left
    /// (exited after answering) and was started again.
    starts: u32,
    /// The largest resident memory a kept-running process of this bot reached, read after
    /// each answer.
    peak_kb: Option<u64>,
    /// The `data` its last fresh process saved, given to the next as Botzone does.
    data: Option<String>,
}

/// A turn's answer: the move object (or a fault), the wall time it took, the answer's
/// `debug` text, if it gave one (our bots put their search summary there), and the `data`
/// it saved for its next turn.
pub struct Answer {
    pub response: Result<Value, Fault>,
    pub elapsed: Duration,
    pub debug: Option<String>,
    pub data: Option<String>,
}

impl Answer {
    pub fn failed(fault: Fault, elapsed: Duration) -> Answer {
        Answer { response: Err(fault), elapsed, debug: None, data: None }
    }

    /// The answer a bot wrote (see [`parse_output`]).
    fn from_output(output: &str, elapsed: Duration) -> Answer {
        match parse_output(output) {
            Ok((response, debug)) => Answer { response: Ok(response), elapsed, debug, data: parse_data(output) },
            Err(f) => Answer::failed(f, elapsed),
        }
    }
}

/// The `data` string of a JSON answer (Botzone keeps it for the bot's next turn).
fn parse_data(output: &str) -> Option<String> {
    let line = output.lines().find(|l| !l.trim().is_empty())?;
    let value: Value = serde_json::from_str(line.trim()).ok()?;
    value.get("data")?.as_str().filter(|d| !d.is_empty()).map(str::to_string)
}

/// A full JSON input with `data` set, as Botzone gives a bot what it saved last turn.
fn with_data(input: &str, data: String) -> String {
    match serde_json::from_str::<Value>(input) {
        Ok(Value::Object(mut object)) => {
            object.insert("data".into(), Value::String(data));
            Value::Object(object).to_string()
        }
        _ => input.to_string(),
    }
}

impl Bot {
    pub fn new(spec: BotSpec) -> Bot {
        Bot { spec, grace: true, kept: None, starts: 0, peak_kb: None, data: None }
    }

    /// A bot killed as soon as its limit has passed.
    pub fn without_grace(spec: BotSpec) -> Bot {
        Bot { spec, grace: false, kept: None, starts: 0, peak_kb: None, data: None }
    }

    /// When a turn with `limit` is given up and the bot killed.
    fn kill_at(&self, limit: Duration) -> Duration {
        if self.grace {
            kill_after(limit)
        } else {
            limit
        }
    }

    /// The peak resident memory of this bot's kept-running processes, in KB (`None`
    /// when it runs afresh: a process gone cannot be asked).
    pub fn peak_kb(&self) -> Option<u64> {
        self.peak_kb
    }

    /// How often this kept-running bot was started again after leaving (0 when fresh).
    pub fn restarts(&self) -> u32 {
        self.starts.saturating_sub(1)
    }

    /// Asks for one turn's answer. `full_input` is the whole JSON history, `request` this
    /// turn's request alone (what a kept-running bot reads).
    pub fn ask(&mut self, full_input: &str, request: &str, limit: Duration) -> Answer {
        if self.spec.keep_running {
            self.ask_kept(full_input, request, limit)
        } else {
            self.ask_fresh(full_input, limit)
        }
    }

    fn ask_fresh(&mut self, input: &str, limit: Duration) -> Answer {
        let input = match self.data.take() {
            Some(data) => with_data(input, data),
            None => input.to_string(),
        };
        let answer = self.ask_fresh_process(&input, limit);
        if answer.response.is_ok() {
            self.data = answer.data.clone();
        }
        answer
    }

    fn ask_fresh_process(&mut self, input: &str, limit: Duration) -> Answer {
        let start = Instant::now();
        let mut child = match self.spec.spawn() {
            Ok(c) => c,
            Err(f) => return Answer::failed(f, start.elapsed()),
        };
        let mut stdin = child.stdin.take().expect("piped");
        let input = format!("{input}\n");
        // Write in a thread: a bot that never reads must not block the judge.
        std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let stderr = drain(child.stderr.take().expect("piped"));
        let (tx, rx) = mpsc::channel();
        let mut stdout = child.stdout.take().expect("piped");
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = (&mut stdout).take(MAX_OUTPUT).read_to_end(&mut out);
            let _ = tx.send(out);
        });
        let output = match rx.recv_timeout(self.kill_at(limit)) {
            Ok(out) => out,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                let elapsed = start.elapsed();
                return Answer::failed(timeout(elapsed, limit, true), elapsed);
            }
        };
        let elapsed = start.elapsed();
        let status = wait_briefly(&mut child);
        if elapsed > limit {
            return Answer::failed(timeout(elapsed, limit, false), elapsed);
        }
        match status {
            Some(s) if !s.success() => {
                Answer::failed(fault(FaultKind::Crash, format!("{s}; stderr: {}", stderr_tail(stderr))), elapsed)
            }
            _ => Answer::from_output(&String::from_utf8_lossy(&output), elapsed),
        }
    }

    fn ask_kept(&mut self, full_input: &str, request: &str, limit: Duration) -> Answer {
        let start = Instant::now();
        let line = if self.kept.is_some() { request } else { full_input };
        if self.kept.is_none() {
            // Botzone restarts a bot that exits with the full history, and so does the
            // judge; counted, since a bot that always exits is not measured kept running.
            self.starts += 1;
            match self.spec.spawn().and_then(LineProcess::from_child) {
                Ok(k) => self.kept = Some(k),
                Err(f) => return Answer::failed(f, start.elapsed()),
            }
        }
        let deadline = start + self.kill_at(limit);
        let kept = self.kept.as_mut().expect("started above");
        if kept.send(line).is_err() {
            self.stop();
            return Answer::failed(fault(FaultKind::Crash, "the kept process closed its input"), start.elapsed());
        }
        let mut output = Vec::new();
        loop {
            match kept.next_line(deadline) {
                Ok(Some(l)) if l.trim() == KEEP_RUNNING_MARKER => break,
                Ok(Some(l)) => output.push(l),
                Ok(None) => {
                    // The bot exited instead of staying: Botzone restarts it with the full
                    // history next turn.
                    let status = kept.exit_status();
                    self.kept = None;
                    let elapsed = start.elapsed();
                    if elapsed > limit {
                        return Answer::failed(timeout(elapsed, limit, false), elapsed);
                    }
                    if let Some(s) = status.filter(|s| !s.success()) {
                        return Answer::failed(fault(FaultKind::Crash, s.to_string()), elapsed);
                    }
                    return Answer::from_output(&output.join("\n"), elapsed);
                }
                Err(TimedOut) => {
                    self.stop();
                    let elapsed = start.elapsed();
                    return Answer::failed(timeout(elapsed, limit, true), elapsed);
                }
            }
        }
        let elapsed = start.elapsed();
        self.peak_kb = self.peak_kb.max(kept.peak_kb());
        if elapsed > limit {
            return Answer::failed(timeout(elapsed, limit, false), elapsed);
        }
        Answer::from_output(&output.join("\n"), elapsed)
    }

    /// Kills a kept-running process, if any.
    pub fn stop(&mut self) {
        if let Some(k) = self.kept.take() {
            k.kill();
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        self.stop();
    }
}

pub fn timeout(elapsed: Duration, limit: Duration, killed: bool) -> Fault {
    let (ms, limit) = (elapsed.as_millis(), limit.as_millis());
    if killed {
        fault(FaultKind::Timeout, format!("no answer after {ms} ms (limit {limit} ms): killed"))
    } else {
        fault(FaultKind::Timeout, format!("answered after {ms} ms, limit {limit} ms"))
    }
}

/// The exit status of a process whose output has ended; it normally follows at once.
fn wait_briefly(child: &mut Child) -> Option<std::process::ExitStatus> {
    let until = Instant::now() + Duration::from_millis(500);
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(1)),
            _ => {
                let _ = child.kill();
                return child.wait().ok();
            }
        }
    }
}

/// Reads a pipe to its end in a thread (so the child never blocks on it), keeping the tail.
fn drain(mut pipe: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut pipe).take(MAX_OUTPUT).read_to_end(&mut buf);
        let _ = std::io::copy(&mut pipe, &mut std::io::sink());
        let _ = tx.send(buf);
    });
    rx
}

fn stderr_tail(rx: Receiver<Vec<u8>>) -> String {
    let bytes = rx.recv_timeout(Duration::from_millis(200)).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim();
    let tail: String = text.chars().rev().take(200).collect::<Vec<_>>().into_iter().rev().collect();
    if tail.is_empty() {
        "(empty)".into()
    } else {
        tail.replace('\n', " | ")
    }
}

/// Botzone's answer forms: `{"response": MOVE, "debug": ..., ...}` on the first line, or a
/// bare MOVE. Returns the move and the debug text (a string, or any other JSON written out).
pub fn parse_output(output: &str) -> Result<(Value, Option<String>), Fault> {
    let line = output.lines().find(|l| !l.trim().is_empty()).ok_or_else(|| fault(FaultKind::BadOutput, "no output"))?;
    let value: Value = serde_json::from_str(line.trim())
        .map_err(|e| fault(FaultKind::BadOutput, format!("not JSON ({e}): {}", clip(line))))?;
    match value {
        Value::Object(ref o) if o.contains_key("response") => {
            let debug = o.get("debug").filter(|d| !d.is_null()).map(|d| match d {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            });
            Ok((o["response"].clone(), debug))
        }
        Value::Object(_) => Ok((value, None)),
        other => Err(fault(FaultKind::BadOutput, format!("not a JSON object: {}", clip(&other.to_string())))),
    }
}

pub fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(80).collect();
    if out.len() < s.len() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_is_its_cpu_model_and_the_instruction_sets_that_change_speed() {
        let cpuinfo = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Gold 6448Y\n\
                       flags\t\t: fpu sse avx2 bmi2 avx512f avx512bw avx512vl avx512_vnni\nprocessor\t: 1\n";
        assert_eq!(
            describe_cpu(cpuinfo),
            "Intel(R) Xeon(R) Gold 6448Y (avx2 bmi2 avx512f avx512bw avx512vl avx512_vnni)"
        );
        assert_eq!(describe_cpu("model name : Old\nflags : sse sse2\n"), "Old (no AVX2)");
        assert_eq!(describe_cpu(""), "unknown CPU (no AVX2)");
    }

    #[test]
    fn steal_is_the_eighth_number_of_the_cpu_line_in_hundredths_of_a_second() {
        let stat = "cpu  949149 8482 17476 93357 841 0 178 8002 0 0\n\
                    cpu0 517421 25 11374 5911 122 0 8 4108 0 0\n";
        assert_eq!(parse_steal(stat), Some(80_020));
        // A kernel too old for the column, or another first line: nothing to report.
        assert_eq!(parse_steal("cpu  1 2 3 4 5 6 7\n"), None);
        assert_eq!(parse_steal("intr 5 6 7 8 9 10 11 12 13\n"), None);
    }

    #[test]
    fn cpu_lists_as_linux_writes_them() {
        assert_eq!(parse_cpu_list("1"), Some(vec![1]));
        assert_eq!(parse_cpu_list("0-3,6,8-9"), Some(vec![0, 1, 2, 3, 6, 8, 9]));
        assert_eq!(parse_cpu_list("0-x"), None);
        assert!(!allowed_cpus().is_empty());
    }

    #[test]
    fn output_forms() {
        let (mv, debug) = parse_output("{\"response\":{\"x\":1,\"y\":2},\"debug\":\"d\"}\n").unwrap();
        assert_eq!((mv["x"].as_i64(), debug.as_deref()), (Some(1), Some("d")));
        let (mv, debug) = parse_output("\n{\"x\":1,\"y\":2}").unwrap();
        assert_eq!((mv["y"].as_i64(), debug), (Some(2), None));
        assert_eq!(parse_output("{\"response\":{},\"debug\":{\"v\":1}}").unwrap().1.as_deref(), Some("{\"v\":1}"));
        assert_eq!(parse_output("hello").unwrap_err().kind, FaultKind::BadOutput);
        assert_eq!(parse_output("").unwrap_err().kind, FaultKind::BadOutput);
        assert_eq!(parse_output("[1]").unwrap_err().kind, FaultKind::BadOutput);
    }

    #[test]
    fn commands_split_like_a_shell() {
        let spec = BotSpec::parse("target/release/ataxx --engine 'u c t'", false).unwrap();
        assert_eq!(spec.argv, vec!["target/release/ataxx", "--engine", "u c t"]);
        assert!(BotSpec::parse("  ", false).is_err());
    }
}
