import type { z } from 'zod';

/** What one part's environment variables parse to: each part of the config reads only its own. */
export type EnvOf<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;
