//! xboard's time controls: `level MPS BASE INC` (conventional, incremental and sudden death).

use crate::protocol::session::MAX_CLOCK_MS;

/// Default time control, as xboard's: 40 moves in 5 minutes.
pub(super) const DEFAULT_LEVEL: Level = Level {
    mps: 40,
    base_ms: 300_000,
    inc_ms: 0,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per session (0: the whole game).
    pub mps: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
}

/// Seconds (`st`, `level`) as milliseconds, clamped to the longest clock; none when negative.
pub(super) fn seconds_to_ms(s: f64) -> Option<u64> {
    (s.is_finite() && s >= 0.0).then(|| ((s * 1000.0).round() as u64).min(MAX_CLOCK_MS))
}

/// `level MPS BASE INC`: BASE in minutes (`5`, `0.5`) or minutes:seconds (`2:30`), INC in
/// seconds (`0`, `0.1`).
pub fn parse_level(args: &[&str]) -> Result<Level, String> {
    let [mps, base, inc] = args else {
        return Err("expected 'level MPS BASE INC'".into());
    };
    let mps: u32 = mps
        .parse()
        .map_err(|_| format!("moves per session '{mps}' is not a number"))?;
    let bad_base = || format!("base time '{base}' is neither minutes nor minutes:seconds");
    let base_ms = match base.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().map_err(|_| bad_base())?;
            let s: f64 = s.parse().map_err(|_| bad_base())?;
            seconds_to_ms(m as f64 * 60.0 + s).ok_or_else(bad_base)?
        }
        None => {
            let m: f64 = base.parse().map_err(|_| bad_base())?;
            seconds_to_ms(m * 60.0).ok_or_else(bad_base)?
        }
    };
    let inc_ms = inc
        .parse::<f64>()
        .ok()
        .and_then(seconds_to_ms)
        .ok_or_else(|| format!("increment '{inc}' is not a number of seconds"))?;
    Ok(Level {
        mps,
        base_ms,
        inc_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_forms() {
        assert_eq!(
            parse_level(&["40", "5", "0"]).unwrap(),
            Level {
                mps: 40,
                base_ms: 300_000,
                inc_ms: 0
            }
        );
        assert_eq!(
            parse_level(&["0", "2:30", "1"]).unwrap(),
            Level {
                mps: 0,
                base_ms: 150_000,
                inc_ms: 1000
            }
        );
        assert_eq!(parse_level(&["40", "0:30", "0"]).unwrap().base_ms, 30_000);
        assert_eq!(parse_level(&["0", "0:10", "0.1"]).unwrap().inc_ms, 100);
        assert!(parse_level(&["40", "2:xx", "0"]).is_err());
        assert!(parse_level(&["40", "5"]).is_err());
        assert!(parse_level(&["-1", "5", "0"]).is_err());
        assert!(parse_level(&["40", "-5", "0"]).is_err());
    }
}
