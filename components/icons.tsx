// Inline icons (no icon font or emoji: servers and phones may lack the glyphs).
export function FolderIcon({ className = "h-5 w-5" }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 20 20" className={className} fill="currentColor">
      <path d="M2 5.5A1.5 1.5 0 0 1 3.5 4h4.09a1.5 1.5 0 0 1 1.06.44L10.2 6h6.3A1.5 1.5 0 0 1 18 7.5v7a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 2 14.5v-9Z" />
    </svg>
  );
}

export function DocumentIcon({ className = "h-5 w-5" }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 20 20" className={className} fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M5 2.75h6.5L15.25 6.5v10.75H5z" />
      <path d="M11.5 2.75V6.5h3.75M7.5 10h5M7.5 13h5" />
    </svg>
  );
}
