import { create } from 'zustand';
import { readStoredTheme, type ThemeChoice } from '../app/theme';

export type { ThemeChoice } from '../app/theme';

interface UiState {
  sidebarOpen: boolean;
  searchOpen: boolean;
  theme: ThemeChoice;
  /** Text for the screen-reader live region (navigation, search results). */
  announcement: string;
  /** The lazy chunk the reader was opening when the page reloaded onto a new app (app/new-app.ts). */
  reopening: string;
  setSidebarOpen: (open: boolean) => void;
  setSearchOpen: (open: boolean) => void;
  setTheme: (theme: ThemeChoice) => void;
  announce: (text: string) => void;
  setReopening: (chunkId: string) => void;
  /** Whether the reader was opening this chunk as the page reloaded; true once, for the view that opens it. */
  takeReopening: (chunkId: string) => boolean;
}

/** UI state only: what the screen shows is the screen's store (screen.ts). */
export const useUi = create<UiState>()((set, get) => ({
  sidebarOpen: false,
  searchOpen: false,
  theme: typeof window === 'undefined' ? 'system' : readStoredTheme(),
  announcement: '',
  reopening: '',
  setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
  setSearchOpen: (searchOpen) => set({ searchOpen }),
  setTheme: (theme) => set({ theme }),
  announce: (announcement) => set({ announcement }),
  setReopening: (reopening) => set({ reopening }),
  takeReopening: (chunkId) => {
    if (get().reopening !== chunkId) return false;
    set({ reopening: '' });
    return true;
  },
}));
