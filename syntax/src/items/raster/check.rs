//! `raster Name = kind(group);` items: a known order, a group where the order takes one
//! (and none where it does not), and a group the order can be built with.

use super::RasterItem;
use crate::consts::Consts;
use crate::errors::{Errors, Reported};
use swizzle_core::plans::raster::Raster;

/// The orders, as written.
const KINDS: &str = "`row_major`, `snake`, `grouped(n)` or `morton(n)`";

pub fn check(item: &RasterItem, errors: &mut Errors) -> Result<Raster, Reported> {
    let kind = item.kind.to_string();
    let group = |errors: &mut Errors| -> Result<usize, Reported> {
        let Some(group) = &item.group else {
            return Err(errors.error(
                &item.kind,
                format!("`{kind}` takes the rows of tiles per band: write `{kind}(8)`"),
            ));
        };
        let value = Consts::new(Default::default()).eval_usize(group, "the group", 1);
        errors.report(value)
    };
    let raster = match kind.as_str() {
        "row_major" | "snake" => {
            if let Some(group) = &item.group {
                return Err(
                    errors.error(group, format!("`{kind}` takes no group: write `{kind};`"))
                );
            }
            match kind.as_str() {
                "row_major" => Raster::RowMajor,
                _ => Raster::Snake,
            }
        }
        "grouped" => Raster::Grouped(group(errors)?),
        "morton" => Raster::Morton(group(errors)?),
        _ => {
            return Err(errors.error(
                &item.kind,
                format!("unknown order `{kind}`: expected {KINDS}"),
            ));
        }
    };
    if let Err(why) = raster.check() {
        let at = item.group.as_ref();
        return Err(match at {
            Some(group) => errors.error(group, why),
            None => errors.error(&item.kind, why),
        });
    }
    Ok(raster)
}
