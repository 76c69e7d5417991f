/** Builds the greeting for one name. */
export function greet(name) {
  const who = name.trim() || 'world';
  return `Hello, ${who}!`;
}
