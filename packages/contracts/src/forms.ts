/**
 * Online forms (ηλεκτρονικές αιτήσεις, spec §2 builder, §3 Online form, §5): the stored
 * structure the builder writes (`api`, JSON text of layout rows), the conditionals that show or hide
 * rows and elements, the checks of a submission, and the statuses a submission moves through.
 */

export * from './forms-api.ts';
export * from './forms-lists.ts';
export * from './forms-rules.ts';
export * from './forms-structure.ts';
export * from './forms-values.ts';
