//! Server lines into events. Each pattern is the lasker/FICS wording of one message; a line
//! that matches none is `Other` and ignored. Nothing here can panic on any input: every
//! field is taken with `split`/`strip` and checked.

use super::style12::{self, Board12};
use super::variant::Variant;

#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// `login:` asked.
    LoginPrompt,
    /// `password:` asked.
    PasswordPrompt,
    /// A guest login: `Press return to enter the server as "GuestXXXX":`.
    GuestPrompt,
    /// `**** Starting FICS session as NAME ****`.
    SessionStarted(String),
    /// `**** Invalid password! ****` and friends.
    LoginFailed(String),
    Board(Box<Board12>),
    /// `Challenge: NAME (RATING) [COLOUR] NAME (RATING) rated|unrated TYPE BASE INC.`
    Challenge(Challenge),
    /// `Creating: W (RATING) B (RATING) rated|unrated TYPE BASE INC`: the pairing, before the
    /// game-start line; the only line that carries both ratings.
    Creating(Pairing),
    /// `{Game N (W vs. B) Creating|Continuing ...}`.
    GameStart {
        game: u32,
        white: String,
        black: String,
        text: String,
    },
    /// `{Game N (W vs. B) WHY} RESULT`.
    GameEnd {
        game: u32,
        white: String,
        black: String,
        why: String,
        result: String,
    },
    DrawOffer(String),
    AbortRequest(String),
    AdjournRequest(String),
    TakebackRequest(String),
    /// `Illegal move (e2e5).`
    IllegalMove,
    /// `NAME tells you: TEXT`.
    Tell {
        from: String,
        text: String,
    },
    /// The opponent lost connection (`Your opponent has lost contact or quit.` and the like).
    OpponentGone,
    /// We hold an adjourned game: `Your opponent, NAME, has arrived.` or notify on login.
    AdjournedWith(String),
    /// `1 player, who has an adjourned game with you, is online:` (lasker, at login): the
    /// names follow on the next line.
    AdjournedOnline,
    Other,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    pub white: String,
    pub white_rating: String,
    pub black: String,
    pub black_rating: String,
    pub rated: bool,
    pub kind: String,
    pub base_min: u32,
    pub inc_s: u32,
    /// The game the pairing names (lasker's `wild` alone names no board: `Other`).
    pub variant: Variant,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    pub from: String,
    pub rated: bool,
    /// `blitz`, `lightning`, `standard`, `untimed`, or a variant name (`wild`, `wild/fr`).
    pub kind: String,
    pub base_min: u32,
    pub inc_s: u32,
    /// Standard chess, Fischer random (`wild fr`, `wild/fr`, lasker's `Loaded from wild/fr`)
    /// or another variant.
    pub variant: Variant,
}

/// Strips a title or rating decoration: `Name(GM)` or `Name(1500)` -> `Name`.
pub fn bare_handle(s: &str) -> &str {
    let end = s.find(['(', '[']).unwrap_or(s.len());
    &s[..end]
}

fn game_header(line: &str) -> Option<(u32, String, String, &str)> {
    let rest = line.trim_start().strip_prefix("{Game ")?;
    let (num, rest) = rest.split_once(' ')?;
    let game = num.parse().ok()?;
    let rest = rest.strip_prefix('(')?;
    let (players, rest) = rest.split_once(')')?;
    let (white, black) = players.split_once(" vs. ")?;
    Some((
        game,
        white.to_string(),
        black.to_string(),
        rest.trim_start(),
    ))
}

fn parse_challenge(body: &str) -> Option<Challenge> {
    // NAME (RATING) [colour] NAME (RATING) rated blitz 5 0.   -- colour and loss lines optional
    // The type may take two words (`wild fr`) and lasker names a wild's board after the
    // clocks (`wild 2 12 Loaded from wild/fr.`): the clocks are the first two numbers.
    let words: Vec<&str> = body.split_whitespace().collect();
    let from = bare_handle(words.first()?).to_string();
    let pos = words
        .iter()
        .position(|w| *w == "rated" || *w == "unrated")?;
    let rated = words[pos] == "rated";
    let rest = words.get(pos + 1..)?;
    let number = |w: &str| w.trim_end_matches('.').parse::<u32>().ok();
    let at = rest
        .windows(2)
        .position(|p| number(p[0]).is_some() && number(p[1]).is_some())?;
    if at == 0 || from.is_empty() {
        return None;
    }
    let base_min = number(rest[at])?;
    let inc_s = number(rest[at + 1])?;
    let mut named: Vec<&str> = rest[..at].to_vec();
    named.extend_from_slice(&rest[at + 2..]);
    Some(Challenge {
        from,
        rated,
        kind: rest[0].to_string(),
        base_min,
        inc_s,
        variant: Variant::from_words(&named),
    })
}

fn parse_pairing(body: &str) -> Option<Pairing> {
    // W (1500) B (----) rated blitz 5 0 -- a rating may be glued to its name or padded inside
    // its parentheses, so the names and ratings are found by their parentheses.
    let (white, rest) = body.trim_start().split_once('(')?;
    let (wr, rest) = rest.split_once(')')?;
    let (black, rest) = rest.trim_start().split_once('(')?;
    let (br, rest) = rest.split_once(')')?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let rated = match *words.first()? {
        "rated" => true,
        "unrated" => false,
        _ => return None,
    };
    let clock: Vec<u32> = words
        .iter()
        .skip(1)
        .filter_map(|w| w.trim_end_matches('.').parse().ok())
        .collect();
    let name = |s: &str| bare_handle(s.trim()).to_string();
    let (white, black) = (name(white), name(black));
    if white.is_empty() || black.is_empty() || white.contains(' ') || black.contains(' ') {
        return None;
    }
    Some(Pairing {
        white,
        white_rating: wr.trim().to_string(),
        black,
        black_rating: br.trim().to_string(),
        rated,
        kind: words.get(1)?.to_string(),
        variant: Variant::from_words(&words[1..]),
        // The clocks are the first two numbers (the type may take two words: `wild fr`).
        base_min: clock.first().copied().unwrap_or(0),
        inc_s: clock.get(1).copied().unwrap_or(0),
    })
}

fn first_word_before(line: &str, tail: &str) -> Option<String> {
    let head = line
        .strip_suffix(tail)
        .or_else(|| line.split_once(tail).map(|p| p.0))?;
    let name = bare_handle(head.split_whitespace().next()?);
    (!name.is_empty() && !head.trim().contains(' ')).then(|| name.to_string())
}

pub fn classify(line: &str) -> Event {
    let t = line.trim();
    if t.starts_with("<12>") {
        return match style12::parse(t) {
            Some(b) => Event::Board(Box::new(b)),
            None => Event::Other,
        };
    }
    if t.ends_with("login:") {
        return Event::LoginPrompt;
    }
    if t.ends_with("password:") {
        return Event::PasswordPrompt;
    }
    if t.starts_with("Press return to enter the server as") {
        return Event::GuestPrompt;
    }
    if let Some(rest) = t.strip_prefix("**** Starting FICS session as ") {
        let name = rest.split_whitespace().next().unwrap_or("");
        return Event::SessionStarted(bare_handle(name).to_string());
    }
    if t.contains("Invalid password") || t.contains("is not a registered name") && t.contains("***")
    {
        return Event::LoginFailed(t.trim_matches('*').trim().to_string());
    }
    if let Some(body) = t.strip_prefix("Creating:") {
        return match parse_pairing(body) {
            Some(p) => Event::Creating(p),
            None => Event::Other,
        };
    }
    if let Some(body) = t.strip_prefix("Challenge:") {
        return match parse_challenge(body) {
            Some(c) => Event::Challenge(c),
            None => Event::Other,
        };
    }
    if let Some((game, white, black, rest)) = game_header(t) {
        if let Some((why, result)) = rest.split_once('}') {
            let result = result.trim();
            let is_result = ["1-0", "0-1", "1/2-1/2", "*"].contains(&result);
            if why.starts_with("Creating") || why.starts_with("Continuing") {
                return Event::GameStart {
                    game,
                    white,
                    black,
                    text: why.to_string(),
                };
            }
            if is_result {
                return Event::GameEnd {
                    game,
                    white,
                    black,
                    why: why.to_string(),
                    result: result.to_string(),
                };
            }
        }
        return Event::Other;
    }
    if t.starts_with("Illegal move") {
        return Event::IllegalMove;
    }
    if let Some((from, text)) = t.split_once(" tells you: ") {
        if !from.contains(' ') {
            return Event::Tell {
                from: bare_handle(from).to_string(),
                text: text.to_string(),
            };
        }
    }
    if t.ends_with("offers you a draw.") {
        if let Some(n) = first_word_before(t, " offers you a draw.") {
            return Event::DrawOffer(n);
        }
    }
    if t.contains(" would like to abort the game") {
        if let Some(n) = first_word_before(t, " would like to abort the game") {
            return Event::AbortRequest(n);
        }
    }
    if t.contains(" would like to adjourn the game") {
        if let Some(n) = first_word_before(t, " would like to adjourn the game") {
            return Event::AdjournRequest(n);
        }
    }
    if t.contains(" would like to take back ") {
        if let Some(n) = first_word_before(t, " would like to take back ") {
            return Event::TakebackRequest(n);
        }
    }
    if t.contains(" adjourned game with you, is online:")
        || t.contains(" adjourned game with you, are online:")
        || t.contains(" adjourned games with you, are online:")
    {
        return Event::AdjournedOnline;
    }
    if t.starts_with("Your opponent has lost contact or quit") {
        return Event::OpponentGone;
    }
    if let Some(rest) = t.strip_prefix("Notification: ") {
        if let Some(n) =
            first_word_before(rest, ", who has an adjourned game with you, has arrived.")
        {
            return Event::AdjournedWith(n);
        }
    }
    if let Some(rest) = t.strip_prefix("Your opponent, ") {
        if let Some(n) = rest.strip_suffix(", has arrived.") {
            return Event::AdjournedWith(bare_handle(n).to_string());
        }
    }
    Event::Other
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_lines() {
        assert_eq!(
            classify("Challenge: Opp (1500) Squall (----) unrated blitz 3 2."),
            Event::Challenge(Challenge {
                from: "Opp".into(),
                rated: false,
                kind: "blitz".into(),
                base_min: 3,
                inc_s: 2,
                variant: Variant::Standard,
            })
        );
        for line in [
            "Challenge: Opp (1500) Squall (----) unrated wild 2 12 Loaded from wild/fr.",
            "Challenge: Opp (1500) Squall (----) unrated wild/fr 2 12.",
            "Challenge: Opp (1500) Squall (----) unrated wild fr 2 12.",
        ] {
            let Event::Challenge(c) = classify(line) else {
                panic!("{line}")
            };
            assert_eq!((c.variant, c.base_min, c.inc_s), (Variant::Fischer, 2, 12));
        }
        assert!(matches!(
            classify("Challenge: Opp (1500) Squall (----) unrated wild 2 12 Loaded from wild/3."),
            Event::Challenge(Challenge {
                variant: Variant::Other,
                ..
            })
        ));
        assert!(matches!(
            classify("Challenge: Opp(GM) ( 2500) [black] Squall ( 1900) rated standard 15 0."),
            Event::Challenge(Challenge { rated: true, .. })
        ));
        assert!(matches!(
            classify("{Game 4 (Opp vs. Squall) Creating unrated blitz match.}"),
            Event::GameStart { game: 4, .. }
        ));
        assert_eq!(
            classify("{Game 4 (Opp vs. Squall) Opp resigns} 0-1"),
            Event::GameEnd {
                game: 4,
                white: "Opp".into(),
                black: "Squall".into(),
                why: "Opp resigns".into(),
                result: "0-1".into()
            }
        );
        assert_eq!(
            classify("Opp offers you a draw."),
            Event::DrawOffer("Opp".into())
        );
        assert_eq!(
            classify("Opp would like to take back 2 half move(s)."),
            Event::TakebackRequest("Opp".into())
        );
        assert_eq!(
            classify("Boss(*) tells you: pause"),
            Event::Tell {
                from: "Boss".into(),
                text: "pause".into()
            }
        );
        assert_eq!(
            classify("**** Invalid password! ****"),
            Event::LoginFailed("Invalid password!".into())
        );
        assert_eq!(
            classify("**** Starting FICS session as Squall(C) ****"),
            Event::SessionStarted("Squall".into())
        );
    }
}
