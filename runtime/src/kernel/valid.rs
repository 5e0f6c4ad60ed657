//! A [`Plan`] is plain public data: one built by hand could point anywhere. The macro's
//! plans always pass; this check turns a malformed one into an error before any copy, so
//! that the copy itself never panics.

use super::{KernelError, Network, Plan};

/// How a side's frame offsets are checked: a row-major side's are the coordinates' own
/// row-major indices in the tile; a layout's lie below its tile space.
#[derive(Clone, Copy)]
pub enum FrameSpace {
    RowMajor,
    Tiles(usize),
}

/// Whether every run stays in one row of its tile and inside both frames, and every network
/// step names registers and lanes that exist, grouped by store in store order.
pub fn check(plan: &Plan, frames: [FrameSpace; 2]) -> Result<(), KernelError> {
    let size = plan
        .tile
        .iter()
        .try_fold(1usize, |acc, &t| acc.checked_mul(t));
    let (Some(size), Some(&last)) = (size, plan.tile.last()) else {
        return Err(KernelError::Plan(
            "its tile has no coordinates or too many elements",
        ));
    };
    if plan.tile.contains(&0) {
        return Err(KernelError::Plan("a tile length is 0"));
    }
    let fits = |frame: FrameSpace, at: usize, offset: usize, len: usize| match frame {
        FrameSpace::RowMajor => offset == at,
        FrameSpace::Tiles(space) => offset.checked_add(len).is_some_and(|end| end <= space),
    };
    for run in plan.runs.iter() {
        let in_row = run.at < size && run.at % last + run.len <= last;
        if !in_row
            || !fits(frames[0], run.at, run.from, run.len)
            || !fits(frames[1], run.at, run.to, run.len)
        {
            return Err(KernelError::Plan("a run leaves its row or its tile"));
        }
    }
    let space = |frame: FrameSpace| match frame {
        FrameSpace::RowMajor => size,
        FrameSpace::Tiles(space) => space,
    };
    let spaces = frames.map(space);
    match plan
        .networks
        .iter()
        .all(|network| network_is_valid(network, spaces))
    {
        true => Ok(()),
        false => Err(KernelError::Plan(
            "a network names registers or lanes outside its tiles",
        )),
    }
}

fn network_is_valid(network: &Network, [loads, stores]: [usize; 2]) -> bool {
    let lanes = network.lanes;
    let registers_fit = |starts: &[usize], space: usize| {
        starts
            .iter()
            .all(|&s| s.checked_add(lanes).is_some_and(|end| end <= space))
    };
    let mut store = 0;
    let steps_fit = network.steps.iter().all(|step| {
        let grouped = step.store == store || step.store == store + 1;
        store = step.store;
        grouped
            && step.load < network.loads.len()
            && step.lanes.len() == lanes
            && step.lanes.iter().all(|&lane| usize::from(lane) < lanes)
    });
    let first = network.steps.first().map_or(0, |step| step.store);
    let counted = network.steps.last().map_or(0, |step| step.store + 1);
    (1..=64).contains(&lanes)
        && steps_fit
        && first == 0
        && counted == network.stores.len()
        && registers_fit(&network.loads, loads)
        && registers_fit(&network.stores, stores)
}
