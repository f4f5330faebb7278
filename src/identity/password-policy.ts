// Passwords of the web faces' users (issue 13, Who signs in): at least 12 characters (NIST SP 800-63B
// asks 8; no composition rules, which push people to predictable patterns), at most 200.

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;
