// Hands bytes to the user as a download (an <a download> click on an object URL). The one
// place the UI saves files; Playwright sees these as ordinary downloads.
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke later: the download has started by then in every browser.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A file name from free text: letters, digits, dot, dash and underscore only. */
export function safeFileName(text: string, fallback: string): string {
  const s = text.replace(/\[%h\]|%[hHiImM]/g, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return s || fallback;
}
