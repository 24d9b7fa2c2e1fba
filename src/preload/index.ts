// The preload exposes the typed bridge contract and nothing else (filled in by the desktop-app work).
export {};
