// Loaded as a tiny blocking script in <head>, before the first paint, so a stored theme never flashes
// the wrong colours. It is a file rather than an inline script because the CSP allows no inline script.
import { applyTheme, readStoredTheme } from './theme';

applyTheme(readStoredTheme());
