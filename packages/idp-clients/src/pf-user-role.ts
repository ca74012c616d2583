/** The role every marketplace user gets, in both provider styles (spec, "Roles"). */
export const PF_USER_ROLE = 'pf-user'
