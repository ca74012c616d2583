/**
 * The attribute that marks a password the exchange set (`pfPasswordSetBy` = `exchange`): a password-less mode
 * removes marked passwords, at the user's next exchange or in bulk; one without the mark was set by someone else.
 */
export const PASSWORD_MARK = { name: 'pfPasswordSetBy', value: 'exchange' } as const
