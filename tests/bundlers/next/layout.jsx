// The Next.js app (copied to the consumer's app/ directory by tests/ts/bundlers.test.ts).
export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
