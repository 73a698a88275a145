import { create } from 'zustand';
import { readStoredTheme, type ThemeChoice } from '../app/theme';

export type { ThemeChoice } from '../app/theme';

interface UiState {
  sidebarOpen: boolean;
  searchOpen: boolean;
  theme: ThemeChoice;
  /** Text for the screen-reader live region (navigation, search results). */
  announcement: string;
  setSidebarOpen: (open: boolean) => void;
  setSearchOpen: (open: boolean) => void;
  setTheme: (theme: ThemeChoice) => void;
  announce: (text: string) => void;
}

/** UI state only: data lives in React Query, location in the router. */
export const useUi = create<UiState>()((set) => ({
  sidebarOpen: false,
  searchOpen: false,
  theme: typeof window === 'undefined' ? 'system' : readStoredTheme(),
  announcement: '',
  setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
  setSearchOpen: (searchOpen) => set({ searchOpen }),
  setTheme: (theme) => set({ theme }),
  announce: (announcement) => set({ announcement }),
}));
