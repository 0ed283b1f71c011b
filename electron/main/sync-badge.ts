import { app, nativeImage, type BrowserWindow, type NativeImage } from 'electron';

/**
 * The conflict count on the dock (macOS) / launcher (Linux Unity) badge, and on Windows — where
 * app.setBadgeCount does nothing — as a taskbar overlay icon with the count in its description.
 */
let overlay: NativeImage | null = null;

function redDot(): NativeImage {
  if (overlay) return overlay;
  const size = 16;
  const pixels = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const dx = x - 7.5;
      const dy = y - 7.5;
      if (dx * dx + dy * dy > 56) continue;
      const i = (y * size + x) * 4; // BGRA
      pixels[i] = 0x2b;
      pixels[i + 1] = 0x2b;
      pixels[i + 2] = 0xd9;
      pixels[i + 3] = 0xff;
    }
  overlay = nativeImage.createFromBitmap(pixels, { width: size, height: size });
  return overlay;
}

export function showConflictBadge(count: number, win: BrowserWindow | null): void {
  app.setBadgeCount(count);
  if (process.platform === 'win32' && win && !win.isDestroyed()) {
    win.setOverlayIcon(
      count > 0 ? redDot() : null,
      count > 0 ? `${count} sync conflict${count === 1 ? '' : 's'}` : '',
    );
  }
}
