"""Image sharing commands (Glance members): ``image add project``,
``image remove project``, ``image member list``, ``image member get``,
with OpenStackClient's names, options and columns
(``openstackclient/image/v2/image.py``). The image's owner shares a
``shared`` image; the member project accepts it with ``image set
--accept``."""

from occli import columns
from occli import utils

_IMAGE_ARG = dict(metavar="<image>", help="Image (name or ID).")
_PROJECT_DOMAIN = dict(
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID), for a project given by name.",
)


def project_id(client, project, domain=None):
    """The id of ``project`` (name or ID, in ``domain``) as OSC's
    ``find_project_id_sdk`` finds it: looked up in keystone (an unknown one
    is NotFound); one a caller may not look up (a project member) is taken
    as an ID."""
    return client.projects.find_resource(project, domain=domain).id


@utils.arg("image", metavar="<image>", help="Image to share (name or ID).")
@utils.arg("project", metavar="<project>", help="Project to associate with image (name or ID).")
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
@utils.output("show")
def do_image_add_project(client, args):
    """Share a shared image with a project.

    The membership is pending until the project accepts it (image set
    --accept); only the image's owner shares it.

    Example: occli image add project cirros-copy alt
    """
    member = project_id(client, args.project, args.project_domain)
    image = client.images.find_resource(args.image)
    return columns.show(client.image_members.create(image, member))


@utils.arg("image", metavar="<image>", help="Image to unshare (name or ID).")
@utils.arg("project", metavar="<project>", help="Project to disassociate with image (name or ID).")
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
def do_image_remove_project(client, args):
    """Stop sharing an image with a project.

    Example: occli image remove project cirros-copy alt
    """
    member = project_id(client, args.project, args.project_domain)
    image = client.images.find_resource(args.image)
    client.image_members.delete(image, member)


@utils.arg("image", **_IMAGE_ARG)
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
@utils.output("list")
def do_image_member_list(client, args):
    """List the projects an image is shared with.

    The image's owner sees every member, a member its own membership.

    Example: occli image member list cirros-copy
    """
    image = client.images.find_resource(args.image)
    return columns.table(
        client.image_members.list(image),
        ["image_id", "member_id", "status"],
        headers=["Image ID", "Member ID", "Status"],
    )


@utils.arg("image", **_IMAGE_ARG)
@utils.arg("member", metavar="<project>", help="Project to show (name or ID).")
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
@utils.output("show")
def do_image_member_get(client, args):
    """Show a project's membership of an image.

    Example: occli image member get cirros-copy alt
    """
    member = project_id(client, args.member, args.project_domain)
    image = client.images.find_resource(args.image)
    return columns.show(client.image_members.get(image, member))
