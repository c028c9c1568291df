/** A Library thumbnail is a sprite of this many frames side by side (main makes it, the renderer shows one at a time). */
export const SPRITE_FRAMES = 8;
/** The frame shown at rest: about a quarter in, past slates and black. */
export const POSTER_FRAME = 2;
