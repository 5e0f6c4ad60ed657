//! DDS files through `ddsfile`: the header read (and only the header, before the payload's
//! length is checked) and written with a DX10 extension for every format with a DXGI
//! number; the payload is the linear surface as the library lays it out (layer by layer,
//! mips within a layer, each mip's depth slices together), which is DDS's order.

use super::surface::{Declared, Header};
use crate::Failure;
use crate::files::Input;
use ddsfile::{
    AlphaMode, Caps2, D3D10ResourceDimension, D3DFormat, DxgiFormat, FourCC, Header10, MiscFlag,
    PixelFormat,
};
use std::io::{self, Write};
use swizzle::texture::Format;

/// Cube maps' faces per layer.
const FACES: usize = 6;

/// Reads the magic, the header and its DX10 extension: what they say about the surface.
pub fn read_header(input: &mut Input) -> Result<Header, Failure> {
    let mut magic = [0; 4];
    input.read_header(&mut magic, "DDS header")?;
    if &magic != b"DDS " {
        return Err(Failure::Input(format!(
            "{} is not a DDS file: it does not start with `DDS `",
            input.name()
        )));
    }
    let header =
        ddsfile::Header::read(&mut *input).map_err(|e| input.header_error("DDS header", &e))?;
    let dx10 = header.spf.fourcc == Some(FourCC(FourCC::DX10));
    let header10 = match dx10 {
        true => {
            Some(Header10::read(&mut *input).map_err(|e| input.header_error("DX10 header", &e))?)
        }
        false => None,
    };
    describe(&header, header10.as_ref(), input.name())
}

/// The surface a DDS header describes.
fn describe(
    header: &ddsfile::Header,
    header10: Option<&Header10>,
    name: &str,
) -> Result<Header, Failure> {
    let origin = format!("{name}'s header");
    let cube = match header10 {
        Some(header10) => header10.misc_flag.contains(MiscFlag::TEXTURECUBE),
        None => header.caps2.contains(Caps2::CUBEMAP),
    };
    let volume = match header10 {
        Some(header10) => header10.resource_dimension == D3D10ResourceDimension::Texture3D,
        None => header.caps2.contains(Caps2::VOLUME),
    };
    let array = header10.map_or(1, |header10| header10.array_size.max(1) as usize);
    let format = match header10 {
        Some(header10) => {
            let dxgi = header10.dxgi_format as u32;
            Format::from_dxgi(dxgi).ok_or_else(|| {
                Failure::Input(format!(
                    "{origin} gives DXGI format {dxgi} ({:?}), which this tool does not tile \
                     (`swizzle texture list` lists the formats)",
                    header10.dxgi_format
                ))
            })?
        }
        None => legacy_format(&header.spf).ok_or_else(|| {
            Failure::Input(format!(
                "{origin} gives a legacy pixel format this tool does not read ({:?}): save \
                 the DDS with a DX10 header",
                header.spf
            ))
        })?,
    };
    Ok(Header {
        origin,
        width: header.width as usize,
        height: header.height as usize,
        depth: match volume {
            true => header.depth.unwrap_or(1).max(1) as usize,
            false => 1,
        },
        layers: if cube { array * FACES } else { array },
        cube,
        mips: header.mip_map_count.unwrap_or(1).max(1) as usize,
        format,
        also: Vec::new(),
    })
}

/// The format of a header without the DX10 extension: DXT and ATI FourCCs, float FourCCs,
/// and the RGBA bit masks of 8-bit formats (through their DXGI numbers).
fn legacy_format(pixel_format: &PixelFormat) -> Option<Format> {
    let dxgi = match pixel_format.fourcc.as_ref().map(|fourcc| fourcc.0) {
        Some(FourCC::DXT1) => 71,
        Some(FourCC::DXT2 | FourCC::DXT3) => 74,
        Some(FourCC::DXT4 | FourCC::DXT5) => 77,
        Some(FourCC::ATI1 | FourCC::BC4_UNORM) => 80,
        Some(FourCC::BC4_SNORM) => 81,
        Some(FourCC::ATI2) => 83,
        Some(FourCC::BC5_SNORM) => 84,
        Some(FourCC::A16B16G16R16F) => 10,
        Some(FourCC::A32B32G32R32F) => 2,
        Some(_) => return None,
        None => match D3DFormat::try_from_pixel_format(pixel_format)? {
            D3DFormat::A8B8G8R8 | D3DFormat::X8B8G8R8 => 28,
            D3DFormat::A8R8G8B8 | D3DFormat::X8R8G8B8 => 87,
            D3DFormat::L8 | D3DFormat::A8 => 61,
            D3DFormat::A8L8 => 49,
            _ => return None,
        },
    };
    Format::from_dxgi(dxgi)
}

/// A DDS header for the surface, checked before anything is read or written: the format
/// needs a DXGI number, the sizes 32 bits.
pub struct DdsHeader {
    header: ddsfile::Header,
    header10: Header10,
}

impl DdsHeader {
    pub fn new(declared: &Declared) -> Result<DdsHeader, Failure> {
        let surface = &declared.surface;
        let format = surface.format;
        let dxgi = format.dxgi().ok_or_else(|| {
            Failure::Input(format!(
                "{format} has no DXGI format: use a raw file (or --container raw)"
            ))
        })?;
        let dxgi = DxgiFormat::try_from(dxgi).map_err(|_| {
            Failure::Input(format!("DXGI format {dxgi} is not one `ddsfile` writes"))
        })?;
        let u32_of = |what: &str, value: usize| {
            u32::try_from(value).map_err(|_| {
                Failure::Input(format!(
                    "a DDS header holds 32-bit sizes: {what} {value} does not fit"
                ))
            })
        };
        // `ddsfile` computes mip 0's size in 32 bits: it must fit.
        let mip0 = surface
            .level(0, 0)
            .map_err(|e| Failure::Input(e.to_string()))?
            .linear
            .len();
        u32_of("mip 0's size in bytes", mip0)?;
        let (width, height) = (
            u32_of("the width", surface.width)?,
            u32_of("the height", surface.height)?,
        );
        let depth = u32_of("the depth", surface.depth)?;
        let mips = u32_of("the mip count", surface.mips)?;
        let layers = u32_of("the layer count", surface.layers)?;
        let cube = declared.cube && surface.layers.is_multiple_of(FACES);
        let caps2 = match (cube, surface.depth > 1) {
            (true, _) => Caps2::CUBEMAP | Caps2::CUBEMAP_ALLFACES,
            (false, true) => Caps2::VOLUME,
            (false, false) => Caps2::empty(),
        };
        let header = ddsfile::Header::new_dxgi(
            height,
            width,
            (depth > 1).then_some(depth),
            dxgi,
            Some(mips),
            Some(layers),
            Some(caps2),
        )
        .map_err(|e| Failure::Input(format!("no DDS header for this surface: {e}")))?;
        let dimension = match surface.depth > 1 {
            true => D3D10ResourceDimension::Texture3D,
            false => D3D10ResourceDimension::Texture2D,
        };
        let array_size = if cube { layers / FACES as u32 } else { layers };
        let header10 = Header10::new(dxgi, cube, dimension, array_size, AlphaMode::Unknown);
        Ok(DdsHeader { header, header10 })
    }

    /// Writes the file: the headers, then `linear`.
    pub fn write(self, linear: &[u8], out: &mut dyn Write) -> io::Result<()> {
        let headers = ddsfile::Dds {
            header: self.header,
            header10: Some(self.header10),
            data: Vec::new(),
        };
        headers.write(&mut &mut *out).map_err(io::Error::other)?;
        out.write_all(linear)
    }
}
