// Defined by @electron-forge/plugin-vite for the renderer named "main_window" in forge.config.ts.
declare const MAIN_WINDOW_VITE_DEV_SERVER_URL: string | undefined;
declare const MAIN_WINDOW_VITE_NAME: string;
