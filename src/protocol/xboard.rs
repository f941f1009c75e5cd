//! xboard / CECP v2 (in progress).

use super::{Session, Switch};

pub fn run(_session: &mut Session, _first: Option<String>) -> Switch {
    None
}
