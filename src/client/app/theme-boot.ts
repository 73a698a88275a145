// Loaded as a tiny blocking script in <head>, before the first paint, so a stored theme never flashes
// the wrong colours. It is a file rather than an inline script because the CSP allows no inline script.
// It also hides an announcement the reader dismissed, keeps a search shortcut pressed and the taps on the
// page's buttons before the app has taken over, which the app then acts on, and starts the app once the
// page has painted.
import { hideDismissedAnnouncement } from './announcement';
import { keepEarlyTaps } from './early-taps';
import { noteEarlyShortcut } from './search-shortcut';
import { startAppAfterFirstPaint } from './start-app';
import { applyTheme, readStoredTheme } from './theme';

applyTheme(readStoredTheme());
hideDismissedAnnouncement();
noteEarlyShortcut();
keepEarlyTaps();
startAppAfterFirstPaint();
