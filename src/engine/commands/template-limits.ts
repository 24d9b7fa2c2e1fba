/** The longest template name, in characters: the window's field and an imported file alike. */
export const NAME_CHARS = 100;
