// The transcript file (spec/08-wire.md 8.6), as protocol/transcript.py.
//
//     file   = MAGIC record*
//     MAGIC  = "DEALERLESS-T3\n" (14 bytes; the digit is the protocol version, the setup's)
//     record = kind (1 byte) || u32 big-endian length || payload
//
// Kinds: 'S' the setup (exactly one, first), 'F' a frame (in chain order), 'E' an
// evidence frame (equivocation or out of turn, after the frames). A file cut at any record
// boundary is a valid prefix of a game, and a verifier needs nothing but the file.

import { EncodingError } from "./errors.js";
import { MAX_FRAME_BYTES, concatBytes, u32 } from "./frames.js";
import { GameSetup, MAX_SETUP_BYTES } from "./setup.js";
import { checkMagic, checkVersion, magic } from "./version.js";

const ascii = (text) => new TextEncoder().encode(text);

/** The transcript magic before its version digit (8.6). */
export const MAGIC_PREFIX = ascii("DEALERLESS-T");
/** Record kinds (8.6): "S" the setup, "F" a frame, "E" an evidence frame. */
export const SETUP = 0x53;
/** @see SETUP */
export const FRAME = 0x46;
/** @see SETUP */
export const EVIDENCE = 0x45;
/** At most 4096 frame records and 16 evidence records (8.6). */
export const MAX_FRAMES = 4096;
/** @see MAX_FRAMES */
export const MAX_EVIDENCE = 16;

/** kind || u32(len) || payload (8.6). */
export function record(kind, payload) {
  return concatBytes([new Uint8Array([kind]), u32(payload.length), payload]);
}

/** A readable byte for errors: 'S', or its code. */
const kindText = (kind) => (kind >= 0x20 && kind < 0x7f
  ? `b'${String.fromCharCode(kind)}'` : `0x${kind.toString(16)}`);

/** A transcript (8.6): the setup, the accepted frames' wires, the evidence records. */
export class Transcript {
  constructor(setup, frames, evidence = []) {
    this.setup = setup;
    this.frames = [...frames];
    this.evidence = [...evidence];
    Object.freeze(this);
  }

  /** The file's bytes. */
  encode() {
    const out = [magic(MAGIC_PREFIX, this.setup.version), record(SETUP, this.setup.encode())];
    for (const f of this.frames) out.push(record(FRAME, f));
    for (const e of this.evidence) out.push(record(EVIDENCE, e));
    return concatBytes(out);
  }

  /** Parse the record structure (8.6's checks, in order); frames are checked by the replay. */
  static decode(data) {
    const version = checkMagic(data, MAGIC_PREFIX, "transcript", "transcript/magic");
    let pos = MAGIC_PREFIX.length + 2;
    let setup = null;
    const frames = [];
    const evidence = [];
    while (pos < data.length) {
      if (data.length - pos < 5) {
        throw new EncodingError("transcript/truncated", `a record header is cut at byte ${pos}`);
      }
      const kind = data[pos];
      const length = ((data[pos + 1] << 24) >>> 0) + (data[pos + 2] << 16)
        + (data[pos + 3] << 8) + data[pos + 4];
      const limit = kind === SETUP ? MAX_SETUP_BYTES : MAX_FRAME_BYTES;
      if (length > limit) {
        throw new EncodingError("transcript/too-large",
          `record at byte ${pos} claims ${length} bytes`);
      }
      const payload = data.subarray(pos + 5, pos + 5 + length);
      if (payload.length !== length) {
        throw new EncodingError("transcript/truncated", `the record at byte ${pos} is cut`);
      }
      if (kind === SETUP && setup === null && frames.length === 0) {
        setup = GameSetup.decode(payload.slice());
        checkVersion(setup.version, "setup", version);
      } else if (kind === FRAME && setup !== null && evidence.length === 0) {
        if (frames.length >= MAX_FRAMES) {
          throw new EncodingError("transcript/too-large", "too many frames");
        }
        frames.push(payload.slice());
      } else if (kind === EVIDENCE && setup !== null && evidence.length < MAX_EVIDENCE) {
        evidence.push(payload.slice());
      } else {
        throw new EncodingError("transcript/record",
          `unexpected record ${kindText(kind)} at byte ${pos}`);
      }
      pos += 5 + length;
    }
    if (setup === null) {
      throw new EncodingError("transcript/no-setup", "the file has no setup record");
    }
    return new Transcript(setup, frames, evidence);
  }
}
