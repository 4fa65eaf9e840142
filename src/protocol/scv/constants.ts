// Constants of the SCV v3 wire (research scv.md §1, §5).

/** SCV has no version negotiation: client and server must speak exactly this version. */
export const PROTOCOL_VERSION = 3;

/** Largest client frame the server accepts: the encoded JSON, newline excluded. */
export const MAX_CLIENT_FRAME_BYTES = 1024 * 1024;

/** Largest `turn.start` / `queue.update` prompt, in UTF-8 bytes. */
export const MAX_PROMPT_BYTES = 256 * 1024;

/** Largest server frame until `session.started.max_server_frame_bytes` says otherwise. */
export const DEFAULT_MAX_SERVER_FRAME_BYTES = 8 * 1024 * 1024;

/** At most this many attachments per `turn.start`. */
export const MAX_TURN_ATTACHMENTS = 16;

/** Server-started turns carry a server-made request id with this prefix. */
export const BACKGROUND_REQUEST_PREFIX = 'background:';
