//! A [`Plan`] is plain public data: one built by hand could point anywhere. The macro's
//! plans always pass; these checks turn a malformed one into an error before any copy, so
//! that the copy itself never panics: its tile and runs ([`check`]) whenever a copy is
//! prepared, and the network a copy runs ([`check_network`]) when it runs one. A plan holds
//! a network for every register width, thousands of lanes in all, of which a copy runs at
//! most one: checking them all was most of the cost of preparing a copy, which a texture of
//! many small levels pays for each level.

use super::{Frame, KernelError, Network, Plan};

/// How a side's frame offsets are checked: a row-major side's are the coordinates' own
/// row-major indices in the tile; a layout's lie below its tile space.
#[derive(Clone, Copy)]
pub enum FrameSpace {
    RowMajor,
    Tiles(usize),
}

/// How `frame` places a plan's frame offsets, for the checks.
pub fn frame_space(frame: &Frame) -> FrameSpace {
    match frame {
        Frame::RowMajor | Frame::Strided { .. } => FrameSpace::RowMajor,
        Frame::Tiles { tile_space, .. }
        | Frame::Stacked { tile_space, .. }
        | Frame::Placed { tile_space, .. } => FrameSpace::Tiles(*tile_space),
    }
}

/// Whether the tile has coordinates, none of length 0, and every run stays in one row of
/// its tile and inside both frames.
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
    Ok(())
}

/// Whether every step of `network` (one of `plan`'s, whose tile [`check`] passed) names
/// registers and lanes that exist, grouped by store in store order.
pub fn check_network(
    plan: &Plan,
    network: &Network,
    frames: [FrameSpace; 2],
) -> Result<(), KernelError> {
    let size: usize = plan.tile.iter().product();
    let spaces = frames.map(|frame| match frame {
        FrameSpace::RowMajor => size,
        FrameSpace::Tiles(space) => space,
    });
    match network_is_valid(network, spaces) {
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
