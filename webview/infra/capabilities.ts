// The rule lives in src/shared so the host's context keys (palette, menus) hide exactly what the chat hides.
export { supports, type UiCapability } from '../../src/shared/coreCapabilities';
