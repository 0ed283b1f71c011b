import { z } from 'zod';
import { readJsonSync, writeJson } from './json-file.js';

/** Where the window was, restored on the next start if it still fits on a connected display. */
export const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400),
  height: z.number().int().min(300),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false };

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Drops a saved position that is no longer on any display (a monitor was unplugged). */
export function fitToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (state.x === undefined || state.y === undefined) return state;
  const { x, y } = state;
  const visible = workAreas.some(
    (a) => x + 100 > a.x && x < a.x + a.width - 100 && y >= a.y - 10 && y < a.y + a.height - 50,
  );
  if (visible) return state;
  return { width: state.width, height: state.height, maximized: state.maximized };
}

export function loadWindowState(file: string, workAreas: readonly Rect[]): WindowState {
  const parsed = WindowStateSchema.safeParse(readJsonSync(file));
  return fitToDisplays(parsed.success ? parsed.data : DEFAULT_WINDOW_STATE, workAreas);
}

export function saveWindowState(file: string, state: WindowState): Promise<void> {
  return writeJson(file, state);
}
